/// A language as `--language`, `ANNOUNCE_LANGUAGE` and the locale's variables name it:
/// one rule, which the command, the hooks and doctor all check through the setting's
/// ``ValueRule``.
///
/// A name is a language of 2 or 3 letters, then subtags of 1 to 8 letters or digits
/// after `-` or `_` (`pt-BR`, `en-GB-x-rp`, `zh-yue`, as speech-dispatcher's voices
/// name them), then, as a locale writes it, a character set after `.` and a modifier
/// after `@` (`de_DE.UTF-8@euro`); at most ``longest`` characters. Anything else, such
/// as `../../x` or a value of 100,000 characters, is a usage error everywhere.
enum LanguageName {
  /// The longest name taken: BCP 47 advises at least 35 characters for a tag, and a
  /// locale's character set and modifier add a few.
  static let longest = 64

  /// Whether `name` is a language name.
  static func isValid(_ name: String) -> Bool { parts(of: name) != nil }

  /// The name as speech-dispatcher is asked for it: the subtags joined by `-`, the
  /// language in lower case and a region in upper case, without the character set and
  /// modifier: `pt_br` is `pt-BR`, `de_DE.UTF-8@euro` is `de-DE`; `nil` when not valid.
  static func normalized(_ name: String) -> String? {
    guard let subtags = parts(of: name) else { return nil }
    // A region is 2 letters after the language; after a singleton such as the `x` of
    // private use (`en-GB-x-rp`), subtags are not regions.
    let singleton = subtags.firstIndex { $0.count == 1 } ?? subtags.endIndex
    return subtags.indices.map { index in
      let subtag = subtags[index]
      return index > 0 && index < singleton && subtag.count == 2 && subtag.allSatisfy(\.isLetter)
        ? subtag.uppercased() : subtag.lowercased()
    }.joined(separator: "-")
  }

  /// The catalog for a name: the one of its language and region, else the one of its
  /// language, as glibc falls back from `de_DE` to `de`; `nil` when announce has none.
  static func catalog(for name: String) -> String? {
    guard let subtags = parts(of: name), let language = subtags.first?.lowercased() else { return nil }
    if subtags.count > 1 {
      let regional = language + "_" + subtags[1].uppercased()
      if MessageCatalogs.has(regional) { return regional }
    }
    return MessageCatalogs.has(language) ? language : nil
  }

  /// Whether a valid name is English, such as `en`, `en_GB.UTF-8` or `EN-us`.
  static func isEnglish(_ name: String) -> Bool { parts(of: name)?.first?.lowercased() == "en" }

  /// The subtags of `name`, without its character set and modifier; `nil` when it is
  /// not a language name.
  private static func parts(of name: String) -> [Substring]? {
    guard !name.isEmpty, name.utf8.count <= longest, name.unicodeScalars.allSatisfy(\.isASCII) else {
      return nil
    }
    var rest = Substring(name)
    if let at = rest.firstIndex(of: "@") {
      guard isWord(rest[rest.index(after: at)...], allowing: []) else { return nil }
      rest = rest[..<at]
    }
    if let dot = rest.firstIndex(of: ".") {
      guard isWord(rest[rest.index(after: dot)...], allowing: ["-", "_"]) else { return nil }
      rest = rest[..<dot]
    }
    let subtags = rest.split(separator: "-", omittingEmptySubsequences: false).flatMap {
      $0.split(separator: "_", omittingEmptySubsequences: false)
    }
    guard let language = subtags.first, (2...3).contains(language.count), language.allSatisfy(\.isLetter),
      subtags.dropFirst().allSatisfy({ (1...8).contains($0.count) && isWord($0, allowing: []) })
    else { return nil }
    return subtags
  }

  /// Whether `text` is not empty and only ASCII letters, digits and `allowing`.
  private static func isWord(_ text: Substring, allowing extra: Set<Character>) -> Bool {
    !text.isEmpty && text.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || extra.contains($0) }
  }
}

extension ValueRule<String> {
  /// A language name (``LanguageName``), such as `en` or `pt-BR`.
  static let languageName = ValueRule(
    description: "a language name, such as en or pt-BR",
    printedDescription: { localized("a language name, such as en or pt-BR") }, example: "en",
    parse: { $0 }, fromJSON: \.string, accepts: LanguageName.isValid,
    show: { JSONValue.quoted(EventDescription.shortened($0, to: 40)) },
    toJSON: EventJSON.quoted)
}
