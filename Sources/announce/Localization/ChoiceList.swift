/// Choices in words, `a, b or c`, as a usage error names them: read aloud, a list of
/// dashes or quotes alone would not say that one of them is wanted.
enum ChoiceList {
  /// `names` as `a, b or c`; `printed`, in the language of the locale.
  static func words(_ names: [String], printed: Bool = false) -> String {
    guard let last = names.last else { return "" }
    guard names.count > 1 else { return last }
    let first = names.dropLast().joined(separator: ", ")
    // TRANSLATORS: the end of a list of values, such as "low, normal or high".
    return printed ? localized("{first} or {last}", ["first": first, "last": last]) : first + " or " + last
  }
}
