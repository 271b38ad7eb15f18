import Foundation

/// Encodes events as JSON Lines for `--json`: one object per line.
///
/// Every object has `event`, `id`, `text`, `attempt` and `time` (seconds since
/// start); `mark`, `reason`, `duration` and `into` appear where they apply, and
/// `part` and `parts` for texts spoken in more than one part. Input lines
/// that were rejected appear as `rejected` events with `line` and `reason`.
public enum EventJSON {
  /// The JSON line for `event`.
  public static func line(for event: AnnouncerEvent) -> String {
    var fields: [(String, String)] = [
      ("event", quoted(event.kind.name)),
      ("id", String(event.announcement.rawValue)),
      ("text", quoted(event.text)),
      ("attempt", String(event.attempt)),
      ("time", seconds(event.time)),
    ]
    if event.parts > 1 {
      fields += [("part", String(event.part)), ("parts", String(event.parts))]
    }
    switch event.kind {
    case .mark(let name): fields.append(("mark", quoted(name)))
    case .spoken(let duration): fields.append(("duration", seconds(duration)))
    case .gaveUp(let reason): fields.append(("reason", quoted(reason.rawValue)))
    case .merged(let into): fields.append(("into", String(into.rawValue)))
    case .queued, .attempt, .begin, .interrupted, .waitingForQuiet, .waitingForConnection,
      .waitingForTurn:
      break
    }
    return object(fields)
  }

  /// The JSON line for an input line that was rejected.
  public static func rejected(lineNumber: Int, input: String, reason: String, time: Duration)
    -> String
  {
    object([
      ("event", quoted("rejected")), ("line", String(lineNumber)), ("text", quoted(input)),
      ("reason", quoted(reason)), ("time", seconds(time)),
    ])
  }

  private static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  private static func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    return String(format: "%.3f", Double(whole) + Double(attoseconds) / 1e18)
  }

  /// `text` as a JSON string literal, quotes included.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          result += String(format: "\\u%04x", scalar.value)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
