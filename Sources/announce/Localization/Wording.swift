/// Makes announce's sentences in one language from its catalogs (`po/`).
///
/// A message is marked where it is written, so that `scripts/extract-messages` finds it
/// for `po/announce.pot`: `localized("…")`, `localized("…", plural: "…", count: n)`, or
/// `Wording.marked("…")` for one that is looked up later. Placeholders are words in
/// braces, such as `{count}`, which the caller fills in after the lookup.
///
/// Every language is read from its compiled catalog by ``CatalogFile``, never through
/// glibc's gettext: a lookup reads only memory, and nothing in the process's locale or
/// environment changes, on any thread (issue #46).
struct Wording: Sendable {
  /// The catalog of the language; `nil` for English, as written in the sources.
  private let catalog: CatalogFile?

  /// English, as written in the sources: what `LANG=C` says.
  static let english = Wording(catalog: nil)
  /// The language of the locale, by gettext's rule (``LocaleLanguage``), chosen once:
  /// the one of every line printed for a person.
  static let printed = LocaleLanguage.ofProcess.wording

  /// The language of the catalog `language`, such as `de` or `pt_BR`, whatever the
  /// locale; English when announce has no such catalog.
  static func language(_ language: String) -> Wording { Wording(catalog: MessageCatalogs.catalog(language)) }

  /// Marks `message` for the catalogs without looking it up, as gettext's `N_()` does.
  static func marked(_ message: String) -> String { message }

  /// `message` in this wording's language; `message` itself when no catalog has it.
  func localized(_ message: String) -> String { catalog?.translation(of: message) ?? message }

  /// `singular` or `plural` in this wording's language, in the form its grammar uses for `count`.
  func localized(_ singular: String, plural: String, count: Int) -> String {
    catalog?.translation(of: singular, count: count) ?? (count == 1 ? singular : plural)
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
  Wording.printed.localized(message, values)
}

/// `singular` or `plural` in the language of the locale, in the form for `count`, with its
/// placeholders filled in, for a line printed for a person.
func localized(
  _ singular: String, plural: String, count: Int, _ values: KeyValuePairs<String, String>
) -> String {
  Wording.printed.localized(singular, plural: plural, count: count, values)
}

extension Wording {
  /// `singular` or `plural` in this wording's language, in the form for `count`, with its
  /// placeholders filled in; its English is remembered for the log (``EnglishOriginals``).
  func localized(
    _ singular: String, plural: String, count: Int, _ values: KeyValuePairs<String, String>
  ) -> String {
    let text = filled(localized(singular, plural: plural, count: count), Array(values))
    let englishValues = values.map { (key: $0.key, value: EnglishOriginals.english(of: $0.value)) }
    return EnglishOriginals.remembering(text, english: filled(count == 1 ? singular : plural, englishValues))
  }

  /// `message` in this wording's language with its placeholders filled in; its English
  /// is remembered for the log (``EnglishOriginals``).
  func localized(_ message: String, _ values: KeyValuePairs<String, String>) -> String {
    let text = filled(localized(message), Array(values))
    // A value made by localized itself, such as an address in words, is English in the English.
    let englishValues = values.map { (key: $0.key, value: EnglishOriginals.english(of: $0.value)) }
    return EnglishOriginals.remembering(text, english: filled(message, englishValues))
  }
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
