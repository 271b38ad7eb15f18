/// swift-argument-parser's own usage errors in the language of the locale.
///
/// swift-argument-parser words its errors in English only and has no catalogs, so the
/// ones a person meets when mistyping a command line (an unknown option, a missing or
/// unexpected argument, a value that is not valid) are recognised whole by their English
/// form and said again in the locale's words. Any other line is kept as it was written.
enum ParserWording {
  /// `line`, one line of swift-argument-parser's report without its `Error: `, in the
  /// locale's language when it is one of the sentences known here.
  static func translated(_ line: String) -> String {
    if let field = fields(of: line, ["Unknown option '", "'. Did you mean '", "'?"]) {
      return localized(
        "Unknown option '{option}'. Did you mean '{suggestion}'?",
        ["option": field[0], "suggestion": field[1]])
    }
    if let field = fields(of: line, ["Unknown option '", "'"]) {
      return localized("Unknown option '{option}'", ["option": field[0]])
    }
    if let field = fields(of: line, ["Missing value for '", "'"]) {
      return localized("Missing value for '{option}'", ["option": field[0]])
    }
    if let field = fields(of: line, ["Unexpected argument '", "'"]) {
      return localized("Unexpected argument '{argument}'", ["argument": field[0]])
    }
    if let field = fields(of: line, ["Missing expected argument '", "'"]) {
      return localized("Missing expected argument '{argument}'", ["argument": field[0]])
    }
    return invalidValue(line) ?? line
  }

  /// "The value 'x' is invalid for '--option <v>'", with what follows it: swift-argument-
  /// parser's list of the valid values, or the reason the option's own parsing gave.
  private static func invalidValue(_ line: String) -> String? {
    let start = ["The value '", "' is invalid for '"]
    if let field = fields(of: line, start + ["'. Please provide one of the following:"]) {
      return localized(
        "The value '{value}' is invalid for '{option}'. Please provide one of the following:",
        ["value": field[0], "option": field[1]])
    }
    if let field = fields(of: line, start + ["'. Please provide one of ", "."]) {
      // 'a', 'b' or 'c' (or 'a' and 'b'): the quoted values, listed again in the locale's words.
      let values = field[2].split(separator: "'", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 1 }.map { "'\($0.element)'" }
      return localized(
        "The value '{value}' is invalid for '{option}'. Please provide one of {values}.",
        ["value": field[0], "option": field[1], "values": ListWords.either(values, printed: true)])
    }
    if let field = fields(of: line, start + ["': ", ""]) {
      return localized(
        "The value '{value}' is invalid for '{option}': {reason}",
        ["value": field[0], "option": field[1], "reason": field[2]])
    }
    if let field = fields(of: line, start + ["'"]) {
      return localized(
        "The value '{value}' is invalid for '{option}'", ["value": field[0], "option": field[1]])
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
