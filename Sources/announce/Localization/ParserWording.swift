/// swift-argument-parser's own usage errors in the language of the locale.
///
/// swift-argument-parser words its errors in English only and has no catalogs, so the
/// ones a person meets when mistyping a command line (an unknown option, a missing or
/// unexpected argument, a value that is not valid) are recognised whole by their English
/// form and said again in the locale's words. Any other line is kept as it was written.
enum ParserWording {
  /// `line`, one line of swift-argument-parser's report without its `Error: `, in
  /// `wording`'s language when it is one of the sentences known here. `values` are the
  /// arguments the user gave, which a sentence may quote: a value is taken whole, even
  /// when it holds the sentence's own words, such as `a' is invalid for 'b`.
  static func translated(_ line: String, values: [String] = [], in wording: Wording = .printed) -> String {
    if let field = fields(of: line, ["Unknown option '", "'. Did you mean '", "'?"]) {
      return wording.localized(
        "Unknown option '{option}'. Did you mean '{suggestion}'?",
        ["option": field[0], "suggestion": field[1]])
    }
    if let field = fields(of: line, ["Unknown option '", "'"]) {
      return wording.localized("Unknown option '{option}'", ["option": field[0]])
    }
    if let field = fields(of: line, ["Missing value for '", "'"]) {
      return wording.localized("Missing value for '{option}'", ["option": field[0]])
    }
    if let field = fields(of: line, ["Unexpected argument '", "'"]) {
      return wording.localized("Unexpected argument '{argument}'", ["argument": field[0]])
    }
    if let field = fields(of: line, ["Missing expected argument '", "'"]) {
      return wording.localized("Missing expected argument '{argument}'", ["argument": field[0]])
    }
    return invalidValue(line, values: values, in: wording) ?? line
  }

  /// "The value 'x' is invalid for '--option <v>'", with what follows it: swift-argument-
  /// parser's list of the valid values, or the reason the option's own parsing gave.
  private static func invalidValue(_ line: String, values: [String], in wording: Wording) -> String? {
    let opening = "The value '"
    let middle = "' is invalid for '"
    guard line.hasPrefix(opening) else { return nil }
    let body = line.dropFirst(opening.count)
    // The value is the longest of the user's arguments that fits; only a value that is
    // none of them (the parser's own) ends at the first "' is invalid for '".
    let given = values.filter { body.hasPrefix($0 + middle) }.max { $0.count < $1.count }
    guard let value = given ?? body.firstRange(of: middle).map({ String(body[..<$0.lowerBound]) }) else {
      return nil
    }
    // An option's name and value name never hold a quote.
    let afterValue = body.dropFirst(value.count + middle.count)
    guard let quote = afterValue.firstIndex(of: "'") else { return nil }
    let option = String(afterValue[..<quote])
    let tail = afterValue[afterValue.index(after: quote)...]
    let listed = ". Please provide one of "
    if tail.isEmpty {
      return wording.localized(
        "The value '{value}' is invalid for '{option}'", ["value": value, "option": option])
    }
    if tail == ". Please provide one of the following:" {
      return wording.localized(
        "The value '{value}' is invalid for '{option}'. Please provide one of the following:",
        ["value": value, "option": option])
    }
    if tail.hasPrefix(listed), tail.hasSuffix(".") {
      // 'a', 'b' or 'c' (or 'a' and 'b'): the quoted values, listed again in the language's words.
      let choices = tail.dropFirst(listed.count).dropLast().split(
        separator: "'", omittingEmptySubsequences: false
      )
      .enumerated().filter { $0.offset % 2 == 1 }.map { "'\($0.element)'" }
      return wording.localized(
        "The value '{value}' is invalid for '{option}'. Please provide one of {values}.",
        ["value": value, "option": option, "values": ListWords.either(choices, printed: true, in: wording)])
    }
    if tail.hasPrefix(": ") {
      return wording.localized(
        "The value '{value}' is invalid for '{option}': {reason}",
        ["value": value, "option": option, "reason": String(tail.dropFirst(2))])
    }
    return nil
  }

  /// What `line` holds between `literals`: it must begin with the first and end with the
  /// last (an empty last one takes the rest of the line), and each one between is found
  /// after the one before it. `nil` when `line` does not have that form.
  private static func fields(of line: String, _ literals: [String]) -> [String]? {
    guard let first = literals.first, let last = literals.last, literals.count > 1,
      line.hasPrefix(first), line.hasSuffix(last), line.count >= first.count + last.count
    else { return nil }
    var rest = line.dropFirst(first.count).dropLast(last.count)
    var found: [String] = []
    for literal in literals.dropFirst().dropLast() {
      guard let range = rest.firstRange(of: literal) else { return nil }
      found.append(String(rest[..<range.lowerBound]))
      rest = rest[range.upperBound...]
    }
    found.append(String(rest))
    return found
  }
}
