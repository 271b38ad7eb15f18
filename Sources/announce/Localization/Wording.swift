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
    // dgettext answers with the very pointer it was given when no catalog has the
    // message, so that pointer must outlive the copy into a String.
    lookUp { message.withCString { String(cString: dgettext(MessageCatalogs.domain, $0)) } } ?? message
  }

  /// `singular` or `plural` in this wording's language, in the form its grammar uses for `count`.
  func localized(_ singular: String, plural: String, count: Int) -> String {
    lookUp {
      singular.withCString { one in
        plural.withCString { many in
          String(cString: dngettext(MessageCatalogs.domain, one, many, UInt(max(0, count))))
        }
      }
    } ?? (count == 1 ? singular : plural)
  }

  /// One lookup at a time: a lookup in another language than the locale's changes the
  /// process's `LANGUAGE` and locale of messages for its length.
  private static let lookups = Mutex(())

  private func lookUp(_ translate: () -> String) -> String? {
    if case .untranslated = source { return nil }
    guard MessageCatalogs.bound else { return nil }
    return Self.lookups.withLock { _ in
      switch source {
      case .untranslated: nil
      case .locale: translate()
      case .language(let code): Self.inLanguage(code, translate)
      }
    }
  }

  /// `translate` with gettext answering in `code`: glibc picks the language from
  /// `LANGUAGE` before the locale, and ignores `LANGUAGE` when the locale of messages is
  /// "C" (as GNU gettext's manual says), so a C or POSIX locale is C.UTF-8 meanwhile,
  /// which every glibc since 2.35 has built in. Raising `_nl_msg_cat_cntr` makes glibc
  /// look up again instead of answering from its cache of the other language; glibc
  /// exports it (since 2.0) without declaring it in a header, so it is found by name.
  private static func inLanguage(_ code: String, _ translate: () -> String) -> String {
    let savedLanguage = getenv("LANGUAGE").map { String(cString: $0) }
    let savedLocale = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
    if savedLocale == "C" || savedLocale == "POSIX" { setlocale(LC_MESSAGES, "C.UTF-8") }
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
  Wording.printed.localized(message)
}

/// `singular` or `plural` in the language of the locale, in the form for `count`.
func localized(_ singular: String, plural: String, count: Int) -> String {
  Wording.printed.localized(singular, plural: plural, count: count)
}
