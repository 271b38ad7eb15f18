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
/// replay leaves them alone. Fields this type does not know are ignored, and a line that
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
  /// A braille record's `withSpeech`: its flash went with speech, whose own record says
  /// whether the announcement was delivered.
  var withSpeech: Bool?
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

  /// Whether it is the outcome of an announcement on one channel: speech's `spoken` or
  /// `gave-up`, or braille's `shown` or `not-shown`.
  var isOutcome: Bool { Self.outcomeEvents.contains(event) && text != nil }
  /// The events of outcomes.
  static let outcomeEvents: Set<String> = [
    "spoken", "gave-up", FlashReport.shownEvent, FlashReport.notShownEvent,
  ]
  /// Whether it is braille's outcome: a flash, `shown` or `not-shown`.
  var isFlash: Bool { event == FlashReport.shownEvent || event == FlashReport.notShownEvent }
  /// Whether the announcement was delivered on this record's channel: heard to the end,
  /// or shown on the braille display for its whole time or acknowledged.
  var wasHeard: Bool { event == "spoken" || event == FlashReport.shownEvent }
  /// Whether it says if the announcement was delivered: every outcome but that of a flash
  /// that went with speech, which is extra (the speech's record decides).
  var decides: Bool { isOutcome && withSpeech != true }
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
