import FoundationEssentials

extension HistoryRecord {
  /// The record a log line holds, keeping what can be kept: a field this type knows
  /// that has the wrong type, such as `"pid":"12"` or `"rate":1.5`, is left out and
  /// counted in `skipped`, and the rest of the record is read. `nil` for a line that is
  /// not a JSON object, or whose `event` cannot be read.
  static func parseKeeping(_ line: String) -> (record: HistoryRecord, skipped: Int)? {
    if let record = parse(line) { return (record, 0) }
    let decoder = JSONDecoder()
    guard case .object(var fields)? = try? decoder.decode(LogValue.self, from: Data(line.utf8)) else {
      return nil
    }
    guard let event = fields["event"] else { return nil }
    // Each field is tried alone beside `event`, the one field a record must have: the
    // decoder's error does not always name the field (a fraction where a whole number
    // belongs is "not valid JSON", with no path).
    func decoded(_ object: [String: LogValue]) -> HistoryRecord? {
      guard let data = try? JSONEncoder().encode(LogValue.object(object)) else { return nil }
      return try? decoder.decode(HistoryRecord.self, from: data)
    }
    let wrong = fields.keys.filter {
      $0 != "event" && decoded(["event": event, $0: fields[$0] ?? .null]) == nil
    }
    for key in wrong { fields[key] = nil }
    return decoded(fields).map { ($0, wrong.count) }
  }
}

/// Any JSON value, read and written again as it was, so that a record can be read
/// without the fields that stop it.
private enum LogValue: Codable {
  case string(String)
  case number(Double)
  case boolean(Bool)
  case null
  case array([LogValue])
  case object([String: LogValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(Bool.self) {
      self = .boolean(value)
    } else if let value = try? container.decode([LogValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: LogValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .boolean(let value): try container.encode(value)
    case .null: try container.encodeNil()
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
