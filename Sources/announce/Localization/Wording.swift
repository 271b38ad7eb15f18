import CIntl
import Glibc
import Synchronization

/// Makes announce's sentences in one language from its gettext catalogs (`po/`).
///
/// A message is marked where it is written, so that `scripts/extract-messages` finds it
/// for `po/announce.pot`: `localized("…")`, `localized("…", plural: "…", count: n)`, or
/// `Wording.marked("…")` for one that is looked up later. Placeholders are words in
/// braces, such as `{count}`, which the caller fills in after the lookup.
struct Wording: Sendable {
  private enum Source: Sendable {
    case untranslated
    case locale
    case language(String)
  }

  private let source: Source

  /// English, as written in the sources: what `LANG=C` says.
  static let english = Wording(source: .untranslated)
  /// The language of the locale, in gettext's order (`LANGUAGE`, `LC_ALL`,
  /// `LC_MESSAGES`, `LANG`): the one of every line printed for a person.
  static let printed = Wording(source: .locale)

  /// The language of the catalog `language`, such as `de` or `pt_BR`, whatever the locale.
  static func language(_ language: String) -> Wording { Wording(source: .language(language)) }

  /// Marks `message` for the catalogs without looking it up, as gettext's `N_()` does.
  static func marked(_ message: String) -> String { message }

  /// `message` in this wording's language; `message` itself when no catalog has it.
  func localized(_ message: String) -> String {
    lookUp(
      // dgettext answers with the very pointer it was given when no catalog has the
      // message, so that pointer must outlive the copy into a String.
      gettext: { message.withCString { String(cString: dgettext(MessageCatalogs.domain, $0)) } },
      file: { $0.translation(of: message) }) ?? message
  }

  /// `singular` or `plural` in this wording's language, in the form its grammar uses for `count`.
  func localized(_ singular: String, plural: String, count: Int) -> String {
    lookUp(
      gettext: {
        singular.withCString { one in
          plural.withCString { many in
            String(cString: dngettext(MessageCatalogs.domain, one, many, UInt(max(0, count))))
          }
        }
      },
      file: { $0.translation(of: singular, count: count) }) ?? (count == 1 ? singular : plural)
  }

  /// How a lookup in a language other than the locale's is made: by gettext, under the
  /// locale of messages named (`nil`: the process's own), or from the catalog file.
  private enum Route: Sendable {
    case gettext(locale: String?)
    case file(CatalogFile?)
  }

  /// One lookup at a time, since a lookup in another language than the locale's changes
  /// the process's `LANGUAGE` and locale of messages for its length; and the route found
  /// for each language, found once.
  private static let lookups = Mutex<[String: Route]>([:])

  private func lookUp(gettext translate: () -> String, file: (CatalogFile) -> String?) -> String? {
    if case .untranslated = source { return nil }
    guard MessageCatalogs.bound else { return nil }
    return Self.lookups.withLock { routes in
      switch source {
      case .untranslated: return nil
      case .locale: return translate()
      case .language(let code):
        let route = routes[code] ?? Self.route(to: code)
        routes[code] = route
        switch route {
        case .gettext(let locale): return Self.inLanguage(code, locale: locale, translate)
        case .file(let catalog): return catalog.flatMap(file)
        }
      }
    }
  }

  /// How to look up in `code`. glibc picks the language from `LANGUAGE` before the
  /// locale, but ignores `LANGUAGE` when the locale of messages is "C" (as GNU gettext's
  /// manual says) and, since glibc 2.39, also when it is C.UTF-8 (glibc bug 16621;
  /// measured: Debian 12's 2.36 answers in German under C.UTF-8 with `LANGUAGE=de`,
  /// Debian 13's 2.41 in English). Under such a locale, a locale of the language itself
  /// (`de_DE.UTF-8`, `pt_BR.UTF-8`) serves when it is installed, then C.UTF-8 for the
  /// older glibc; a catalog's header, the translation of "", shows whether gettext found
  /// it. When none serves, as on a machine with only the C locales, the catalog file is
  /// read by announce itself.
  private static func route(to code: String) -> Route {
    guard let current = setlocale(LC_MESSAGES, nil).map({ String(cString: $0) }), MessageCatalogs.isC(current)
    else {
      return .gettext(locale: nil)
    }
    let language = code.split(separator: "_").first.map(String.init) ?? code
    let own = code.contains("_") ? code : language + "_" + language.uppercased()
    for locale in [own + ".UTF-8", "C.UTF-8"] {
      let header = inLanguage(code, locale: locale) { String(cString: dgettext(MessageCatalogs.domain, "")) }
      if !header.isEmpty { return .gettext(locale: locale) }
    }
    return .file(
      MessageCatalogs.directory.flatMap {
        CatalogFile(path: "\($0)/\(code)/LC_MESSAGES/\(MessageCatalogs.domain).mo")
      })
  }

  /// `translate` with gettext answering in `code`, under the locale of messages `locale`
  /// (`nil`: the process's own) when that locale exists. Raising `_nl_msg_cat_cntr` makes
  /// glibc look up again instead of answering from its cache of the other language; glibc
  /// exports it (since 2.0) without declaring it in a header, so it is found by name.
  private static func inLanguage(_ code: String, locale: String?, _ translate: () -> String) -> String {
    let savedLanguage = getenv("LANGUAGE").map { String(cString: $0) }
    let savedLocale = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
    if let locale { setlocale(LC_MESSAGES, locale) }
    setenv("LANGUAGE", code, 1)
    let changes = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_nl_msg_cat_cntr")?
      .assumingMemoryBound(to: Int32.self)
    changes?.pointee += 1
    let text = translate()
    if let savedLanguage { setenv("LANGUAGE", savedLanguage, 1) } else { unsetenv("LANGUAGE") }
    setlocale(LC_MESSAGES, savedLocale)
    changes?.pointee += 1
    return text
  }
}

/// `message` in the language of the locale, for a line printed for a person.
func localized(_ message: String) -> String {
  EnglishOriginals.remembering(Wording.printed.localized(message), english: message)
}

/// `singular` or `plural` in the language of the locale, in the form for `count`.
func localized(_ singular: String, plural: String, count: Int) -> String {
  Wording.printed.localized(singular, plural: plural, count: count)
}

/// `message` in the language of the locale with its placeholders filled in, for a line
/// printed for a person: `localized("{path} is locked.", ["path": path])`.
func localized(_ message: String, _ values: KeyValuePairs<String, String>) -> String {
  let text = filled(localized(message), Array(values))
  // A value made by localized itself, such as an address in words, is English in the English.
  let englishValues = values.map { (key: $0.key, value: EnglishOriginals.english(of: $0.value)) }
  return EnglishOriginals.remembering(text, english: filled(message, englishValues))
}

/// `template` with its placeholders filled in, in one pass, so that a value holding
/// braces, such as a user's argument, is never filled in itself.
func filled(_ template: String, _ values: [(key: String, value: String)]) -> String {
  var text = ""
  var rest = Substring(template)
  while let open = rest.firstIndex(of: "{") {
    text += rest[..<open]
    let name = rest[rest.index(after: open)...].prefix { $0 != "}" && $0 != "{" }
    if name.endIndex < rest.endIndex, rest[name.endIndex] == "}",
      let value = values.first(where: { $0.key == name })?.value
    {
      text += value
      rest = rest[rest.index(after: name.endIndex)...]
    } else {
      text += "{"
      rest = rest[rest.index(after: open)...]
    }
  }
  return text + rest
}
