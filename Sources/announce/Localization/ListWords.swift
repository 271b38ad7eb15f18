/// Lists in words, `a, b or c` and `a, b and c`: read aloud, dashes or quotes alone
/// would not say whether one of the items is meant or all of them.
enum ListWords {
  /// `names` as `a, b or c`, one of which is wanted; `printed`, in the language of the locale.
  static func either(_ names: [String], printed: Bool = false, in wording: Wording = .printed) -> String {
    guard let last = names.last else { return "" }
    guard names.count > 1 else { return last }
    let first = names.dropLast().joined(separator: ", ")
    guard printed else { return first + " or " + last }
    // TRANSLATORS: the end of a list of values, such as "low, normal or high".
    return wording.localized("{first} or {last}", ["first": first, "last": last])
  }

  /// `names` as `a, b and c`, all of them, in the language of the locale.
  static func all(_ names: [String]) -> String {
    guard let last = names.last else { return "" }
    guard names.count > 1 else { return last }
    // TRANSLATORS: the end of a list of names, such as "espeak-ng, festival and dummy".
    return localized("{items} and {last}", ["items": names.dropLast().joined(separator: ", "), "last": last])
  }
}
