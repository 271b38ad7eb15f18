/// Numbers with a fraction as each language writes them, and the plural form they take.
enum NumberWords {
  /// `value`, to a tenth, as `wording`'s language writes it: `1.5` in English, `1,5`
  /// in German, French, Spanish and Brazilian Portuguese, whose screen readers read
  /// "1.5" as "1 Punkt 5" or as a date; a whole number as digits alone. The English is
  /// remembered for the log and `--json` (``EnglishOriginals``).
  static func decimal(_ value: Double, in wording: Wording = .printed) -> String {
    let tenths = Int((value * 10).rounded())
    let english = tenths % 10 == 0 ? String(tenths / 10) : String(Double(tenths) / 10)
    return EnglishOriginals.remembering(written(english, in: wording), english: english)
  }

  /// `english`, a number written with a decimal point such as `12.34`, with the
  /// decimal separator of `wording`'s language.
  static func written(_ english: String, in wording: Wording = .printed) -> String {
    guard let point = english.firstIndex(of: ".") else { return english }
    // TRANSLATORS: a number with a decimal fraction, such as 1.5; write your language's decimal separator.
    return wording.localized("{whole}.{fraction}")
      .replacingBytes(of: "{whole}", with: String(english[..<point]))
      .replacingBytes(of: "{fraction}", with: String(english[english.index(after: point)...]))
  }

  /// The count that picks the plural form for `value`, which may have a fraction.
  ///
  /// gettext's plural rules take whole numbers. By CLDR's rules a fraction below 2
  /// takes the form 0 takes: the plural in English, German and Spanish ("0 seconds",
  /// "1.5 seconds", `n != 1`), the singular in French and Brazilian Portuguese
  /// ("0 seconde", "1,5 seconde", `n > 1`). From 2 on, a fraction takes the form of its
  /// whole part in all five.
  static func pluralCount(_ value: Double) -> Int {
    let tenths = Int((value * 10).rounded())
    guard tenths % 10 != 0 else { return tenths / 10 }
    return tenths < 20 ? 0 : tenths / 10
  }

  /// `value` seconds, such as "1 second" or "1,5 secondes", in `wording`'s language.
  static func seconds(_ value: Double, in wording: Wording = .printed) -> String {
    wording.localized(
      "{count} second", plural: "{count} seconds", count: pluralCount(value),
      ["count": decimal(value, in: wording)])
  }
}
