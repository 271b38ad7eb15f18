import AnnouncerCore
import FoundationEssentials

/// The value of one field of a JSON input line, as much of it as a setting needs: a
/// list or an object is only known to be one, since no setting takes either.
enum JSONValue: Decodable, Sendable, Equatable, CustomStringConvertible {
  case string(String)
  case number(Double)
  case boolean(Bool)
  case null
  /// An array or an object.
  case structure

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Strings first, then numbers: each failed try costs a thrown error, and most
    // fields are one or the other.
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(Bool.self) {
      self = .boolean(value)
    } else {
      self = .structure
    }
  }

  /// The string, if this is one.
  var string: String? {
    if case .string(let value) = self { value } else { nil }
  }

  /// The number, if this is one.
  var number: Double? {
    if case .number(let value) = self { value } else { nil }
  }

  /// The number, if this is one without a fraction that fits an `Int`.
  var wholeNumber: Int? {
    guard let number, number.rounded() == number, abs(number) < 1e15 else { return nil }
    return Int(number)
  }

  /// The Boolean, if this is one.
  var boolean: Bool? {
    if case .boolean(let value) = self { value } else { nil }
  }

  /// The value as a message quotes it: `100.5`, `"loud"`, `true`, `a list or an object`.
  var description: String {
    switch self {
    case .string(let value): Self.quoted(value)
    case .number(let value): Self.numberText(value)
    case .boolean(let value): String(value)
    case .null: "null"
    case .structure: "a list or an object"
    }
  }

  /// `text` in quotes as JSON writes it, cut short when long, so that a message stays one
  /// short line: a line break in it is written `\n`, as the person wrote it in the line.
  static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

  /// `text` as JSON writes it inside quotes (``OneLine``), cut at `limit` characters with
  /// "…" when longer, and never inside an escape.
  static func escaped(_ text: String, limit: Int = 40) -> String {
    var pieces: [String] = []
    var length = 0
    for character in text {
      let piece = OneLine.escaped(String(character), quotesAndBackslashes: true)
      pieces.append(piece)
      length += piece.count
      if length > limit { break }
    }
    guard length > limit else { return pieces.joined() }
    while length > limit - 1, let last = pieces.popLast() { length -= last.count }
    return pieces.joined() + "…"
  }

  /// A number as people write it: `500`, not `500.0`.
  static func numberText(_ number: Double) -> String {
    number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
  }
}
