import AnnouncerCore
import FoundationEssentials
import Glibc

/// One line of the outcome log, as `announce history` and `announce replay` read it.
///
/// An outcome line holds the fields of `--json` (`event`, `id`, `text`, `attempt`, `time`,
/// `reason` or `duration`), `at` and `pid`, and what is needed to speak it again the same
/// way: `key`, unique to the record; `replays`, the key of the announcement a replay
/// spoke again; and the field of each setting in ``Settings/recorded`` that was set,
/// such as `priority`, `rate` or `voice` (the priority always). A `replay` line, written
/// before a replay speaks, lists in `keys` the announcements it claims, so that a second
/// replay leaves them alone.
///
/// Each outcome names its `channel` (`speech`, `braille`), says whether that channel
/// was `required` to deliver the announcement, and whether it was `delivered` there, so
/// that the readers read any channel's records alike. Records written before these
/// fields (0.3.0 and the builds after it) are read as they were: `spoken` and `gave-up`
/// are speech's and required; `shown` and `not-shown` are braille's, required unless
/// `withSpeech` says speech went with them. Fields this type does not know are ignored, and a line that
/// is not such an object is skipped, so that older and damaged logs are still read.
struct HistoryRecord: Decodable, Sendable, Equatable {
  var event: String
  var text: String?
  var reason: String?
  var at: String?
  var pid: Int32?
  var key: String?
  var replays: String?
  var keys: [String]?
  /// A braille record's `withSpeech`, in records older than `required`: its flash went
  /// with speech, whose own record says whether the announcement was delivered.
  var withSpeech: Bool?
  /// The channel's name, as the record gives it; `nil` in an older record.
  var channelName: String?
  /// Whether its channel had to deliver the announcement; `nil` in an older record.
  var required: Bool?
  /// Whether its channel delivered the announcement; `nil` in an older record.
  var delivered: Bool?
  /// The recorded settings' values as the log holds them, by their record key; each is
  /// of its setting's kind, in range or not.
  var settings: [String: JSONValue] = [:]

  /// The `event` of the line a replay writes, before it speaks, to claim its announcements.
  static let claimEvent = "replay"

  /// Reads the known fields; throws when one has the wrong type, as a setting's value
  /// of the wrong kind does.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FieldName.self)
    func field<Value: Decodable>(_ name: String) throws -> Value? {
      try container.decodeIfPresent(Value.self, forKey: FieldName(name))
    }
    event = try container.decode(String.self, forKey: FieldName("event"))
    text = try field("text")
    reason = try field("reason")
    at = try field("at")
    pid = try field("pid")
    key = try field("key")
    replays = try field("replays")
    keys = try field("keys")
    withSpeech = try field("withSpeech")
    channelName = try field("channel")
    required = try field("required")
    delivered = try field("delivered")
    for setting in Settings.recorded {
      guard let name = setting.recordKey, let value: JSONValue = try field(name), value != .null else {
        continue
      }
      guard setting.isOfKind(value) else {
        throw DecodingError.typeMismatch(
          JSONValue.self,
          .init(codingPath: [FieldName(name)], debugDescription: "\(value) is not of the setting's kind"))
      }
      settings[name] = value
    }
  }

  /// A field's name in a log line.
  private struct FieldName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// The record a log line holds; `nil` for a line that is not a JSON object.
  static func parse(_ line: String) -> HistoryRecord? {
    try? JSONDecoder().decode(HistoryRecord.self, from: Data(line.utf8))
  }

  /// Whether it is the outcome of an announcement on one channel: a record that says
  /// whether its channel delivered it, or an older record of one of ``olderOutcomeEvents``.
  var isOutcome: Bool { text != nil && (delivered != nil || Self.olderOutcomeEvents.contains(event)) }
  /// Whether it records an input that was rejected, such as a hook's JSON document
  /// without its text: nothing was said, and there is nothing to replay.
  var isRejection: Bool { event == "rejected" && text != nil }
  /// The events of outcomes in records older than `delivered`: speech's, then braille's.
  static let olderOutcomeEvents: Set<String> = ["spoken", "gave-up", "shown", "not-shown"]
  /// The events of delivered outcomes in records older than `delivered`.
  static let olderDeliveredEvents: Set<String> = ["spoken", "shown"]
  /// The channel it is an outcome on: the one it names, or in an older record, the one
  /// its event belongs to; `nil` for a channel this version does not know.
  var channel: Channel? {
    if let channelName { return Channel(rawValue: channelName) }
    switch event {
    case "spoken", "gave-up": return .speech
    case "shown", "not-shown": return .braille
    default: return nil
    }
  }
  /// Whether the announcement was delivered on this record's channel.
  var wasDelivered: Bool { delivered ?? Self.olderDeliveredEvents.contains(event) }
  /// Whether it says if the announcement was delivered: the outcome of a channel that had
  /// to deliver it. Another channel's is extra, as a flash beside speech is.
  var decides: Bool { isOutcome && (required ?? (withSpeech != true)) }
  /// The key of the announcement it is an outcome of: its own, or the one it replays.
  var announcementKey: String? { replays ?? key }
  /// Whether the text is SSML.
  var ssml: Bool? { Settings.ssml.recordKey.flatMap { settings[$0]?.boolean } }

  /// When it was written, in seconds since 1970; `nil` when `at` is missing or malformed.
  var seconds: Double? { at.flatMap(Self.seconds(fromTimestamp:)) }

  /// The announcement to speak it again, the same way: its text and every recorded
  /// setting. A value the log holds that is no longer valid is left out, so that
  /// speech-dispatcher's own setting applies.
  var announcement: Announcement {
    var result = Announcement(text ?? "")
    for setting in Settings.recorded {
      guard let name = setting.recordKey, let value = settings[name] else { continue }
      setting.change(fromRecord: value)?(&result)
    }
    return result
  }

  /// The fields that say how `announcement` is spoken, for the end of a log line: each
  /// recorded setting that is set, as `,"name":value`.
  static func fields(for announcement: Announcement) -> String {
    Settings.recorded.compactMap { $0.recordField(of: announcement) }.joined()
  }

  /// Seconds since 1970 from a timestamp that ``OutcomeLog/timestamp(_:)`` wrote, such
  /// as `2026-11-22T10:15:03.120+01:00`; `nil` when it is not one.
  static func seconds(fromTimestamp stamp: String) -> Double? {
    let bytes = Array(stamp.utf8)
    guard bytes.count >= 24, bytes[4] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
      bytes[19] == UInt8(ascii: ".")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let millis = number(20..<23)
    else { return nil }
    var offset = 0
    if bytes[23] != UInt8(ascii: "Z") {
      guard bytes.count == 29, let hours = number(24..<26), let minutes = number(27..<29) else { return nil }
      offset = (hours * 60 + minutes) * 60 * (bytes[23] == UInt8(ascii: "-") ? -1 : 1)
    }
    var broken = tm()
    broken.tm_year = Int32(year - 1900)
    broken.tm_mon = Int32(month - 1)
    broken.tm_mday = Int32(day)
    broken.tm_hour = Int32(hour)
    broken.tm_min = Int32(minute)
    broken.tm_sec = Int32(second)
    return Double(timegm(&broken) - offset) + Double(millis) / 1000
  }
}
