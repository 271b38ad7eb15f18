import AnnouncerCore
import FoundationEssentials
import Glibc

/// Encodes events as JSON Lines for `--json`: one object per line.
///
/// Every object has `event`, `id`, `text`, `attempt` and `time` (seconds since
/// start); `mark`, `reason`, `duration` and `into` appear where they apply, and
/// `part` and `parts` for texts spoken in more than one part, and `resumeAt` on an
/// `attempt` that resumes after an interruption (where in `text` it starts, in
/// Unicode code points). Input lines
/// that were rejected appear as `rejected` events with `line` and `reason`, and an
/// announcement read on the braille display as `acknowledged` with `key`.
///
/// A braille flash's outcome is braille's own: `shown` (with `duration`, and `acknowledged`
/// naming the key when one said it was read) or `not-shown` with a braille `reason`, with
/// `withSpeech` when it went with speech; it has no `attempt`.
enum EventJSON {
  /// The JSON line for `event`.
  static func line(for event: AnnouncerEvent) -> String {
    var object = Object()
    object.string("event", event.kind.name)
    object.raw("id", String(event.announcement.rawValue))
    object.string("text", event.text)
    object.raw("attempt", String(event.attempt))
    object.raw("time", seconds(event.time))
    if event.parts > 1 {
      object.raw("part", String(event.part))
      object.raw("parts", String(event.parts))
    }
    if let resumeAt = event.resumeAt { object.raw("resumeAt", String(resumeAt)) }
    switch event.kind {
    case .mark(let name): object.string("mark", name)
    case .spoken(let duration): object.raw("duration", seconds(duration))
    case .gaveUp(let reason): object.string("reason", reason.rawValue)
    case .merged(let into): object.raw("into", String(into.rawValue))
    case .queued, .attempt, .begin, .interrupted, .waitingForQuiet, .waitingForConnection,
      .waitingForTurn:
      break
    }
    return object.line
  }

  /// The JSON line for an input line that was rejected.
  static func rejected(
    lineNumber: Int, input: String, reason: String, time: Duration
  )
    -> String
  {
    var object = Object()
    object.string("event", "rejected")
    object.raw("line", String(lineNumber))
    object.string("text", input)
    object.string("reason", reason)
    object.raw("time", seconds(time))
    return object.line
  }

  /// The JSON line for an announcement a key on the braille display said was read.
  static func acknowledged(id: AnnouncementID, text: String, key: String, time: Duration) -> String {
    var object = Object()
    object.string("event", "acknowledged")
    object.raw("id", String(id.rawValue))
    object.string("text", text)
    object.string("key", key)
    object.raw("time", seconds(time))
    return object.line
  }

  /// One JSON object, written field by field into a single string. (Building an
  /// array of name and value pairs and joining it costs more than the whole
  /// announcer per event.) A channel's report writes its own line with it.
  struct Object {
    private var text = "{"
    private var empty = true

    /// A field whose value is already JSON, such as a number. `name` needs no escaping.
    mutating func raw(_ name: String, _ value: String) {
      key(name)
      text += value
    }

    /// A field whose value is a string.
    mutating func string(_ name: String, _ value: String) {
      key(name)
      appendQuoted(value, to: &text)
    }

    private mutating func key(_ name: String) {
      text += empty ? "\"" : ",\""
      empty = false
      text += name
      text += "\":"
    }

    var line: String { text + "}" }
  }

  /// Seconds with three decimals, from the duration's own integer parts (no
  /// formatting through Foundation): rounded to the nearest millisecond, halves up.
  static func seconds(_ duration: Duration) -> String { seconds(duration, decimals: 3) }

  /// Seconds with `decimals` decimals (0 to 6), rounded to the nearest, halves up.
  static func seconds(_ duration: Duration, decimals: Int) -> String {
    let (whole, attoseconds) = duration.components
    var unit: Int64 = 1
    for _ in 0..<decimals { unit *= 10 }
    let attosecondsPerStep = 1_000_000_000_000_000_000 / unit
    var steps = whole * unit + (attoseconds + attosecondsPerStep / 2) / attosecondsPerStep
    let negative = steps < 0
    if negative { steps = -steps }
    guard decimals > 0 else { return (negative ? "-" : "") + String(steps) }
    let fraction = String(steps % unit)
    return (negative ? "-" : "") + String(steps / unit) + "."
      + String(repeating: "0", count: decimals - fraction.utf8.count) + fraction
  }

  /// Appends `text` as a JSON string literal.
  static func appendQuoted(_ text: String, to result: inout String) {
    // Most texts need no escaping: append them whole.
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      result += "\""
      result += text
      result += "\""
      return
    }
    result += quoted(text)
  }

  /// `text` as a JSON string literal, quotes included.
  static func quoted(_ text: String) -> String {
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
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.utf8.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
