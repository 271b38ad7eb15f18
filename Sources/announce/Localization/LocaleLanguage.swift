import FoundationEssentials

/// The language a locale's variables name, by gettext's rule: `LANGUAGE`, a list of
/// languages in order, wins unless the locale is C; then the first of `LC_ALL`,
/// `LC_MESSAGES` and `LANG` that is set. A name such as `de_DE.UTF-8@euro` falls back as
/// glibc's does: `de_DE`, then `de`.
///
/// The variables are read by name, whether or not the locale is installed: one rule
/// serves the printed lines and the spoken sentences, which glibc's `setlocale` made
/// differ when `LANG` named a locale the machine lacks (printed English, spoken German).
enum LocaleLanguage: Equatable, Sendable {
  /// C, POSIX, C with a character set, or nothing set: the sentences as written.
  case c
  /// A language announce has a catalog for, such as `de` or `pt_BR`.
  case catalog(String)
  /// English, or a language announce has no catalog for.
  case other

  /// The language of the locale in `environment`.
  init(environment: [String: String]) {
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    guard let locale = value("LC_ALL") ?? value("LC_MESSAGES") ?? value("LANG"), !MessageCatalogs.isC(locale)
    else {
      self = .c
      return
    }
    // GNU gettext ignores LANGUAGE under C (the manual, "The LANGUAGE variable"), and
    // glibc since 2.39 under C.UTF-8 too (bug 16621); the guard above takes both.
    let candidates = (value("LANGUAGE")?.split(separator: ":").map(String.init) ?? []) + [locale]
    for candidate in candidates where !MessageCatalogs.isC(candidate) {
      if let found = LanguageName.catalog(for: candidate) {
        self = .catalog(found)
        return
      }
      if LanguageName.isEnglish(candidate) { break }
    }
    self = .other
  }

  /// The language of this process's own locale, read once: `Main` reads it before any
  /// thread starts, and nothing changes the environment after that.
  static let ofProcess = LocaleLanguage(environment: ProcessInfo.processInfo.environment)

  /// The sentence-maker of this language: English for C and for a language without a catalog.
  var wording: Wording {
    if case .catalog(let code) = self { return .language(code) }
    return .english
  }
}
