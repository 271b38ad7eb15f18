import AnnouncerCore
import FoundationEssentials
import Glibc

/// One line of the outcome log, as `announce history` and `announce replay` read it.
///
/// An outcome line holds the fields of `--json` (`event`, `id`, `text`, `attempt`, `time`,
/// `reason` or `duration`), `at` and `pid`, and what is needed to speak it again the same
/// way: `key`, unique to the record; `replays`, the key of the announcement a replay
/// spoke again; `priority`; and, when they were set, `ssml`, `soundIcon`, `rate`,
/// `pitch`, `pitchRange`, `volume`, `language`, `voice`, `voiceType`, `outputModule`,
/// `punctuation` and `spell`. A `replay` line, written before a replay speaks, lists in
/// `keys` the announcements it claims, so that a second replay leaves them alone.
/// Fields this type does not know are ignored, and a line that is not such an object is
/// skipped, so that older and damaged logs are still read.
struct HistoryRecord: Decodable, Sendable, Equatable {
  var event: String
  var text: String?
  var reason: String?
  var at: String?
  var pid: Int32?
  var key: String?
  var replays: String?
  var keys: [String]?
  var priority: String?
  var ssml: Bool?
  var soundIcon: String?
  var rate: Int?
  var pitch: Int?
  var pitchRange: Int?
  var volume: Int?
  var language: String?
  var voice: String?
  var voiceType: String?
  var outputModule: String?
  var punctuation: String?
  var spell: Bool?

  /// The `event` of the line a replay writes, before it speaks, to claim its announcements.
  static let claimEvent = "replay"

  /// The record a log line holds; `nil` for a line that is not a JSON object.
  static func parse(_ line: String) -> HistoryRecord? {
    try? JSONDecoder().decode(HistoryRecord.self, from: Data(line.utf8))
  }

  /// Whether it is the outcome of an announcement: `spoken` or `gave-up`.
  var isOutcome: Bool { (event == "spoken" || event == "gave-up") && text != nil }
  /// Whether the announcement was heard to the end.
  var wasHeard: Bool { event == "spoken" }
  /// The key of the announcement it is an outcome of: its own, or the one it replays.
  var announcementKey: String? { replays ?? key }

  /// When it was written, in seconds since 1970; `nil` when `at` is missing or malformed.
  var seconds: Double? { at.flatMap(Self.seconds(fromTimestamp:)) }

  /// The announcement to speak it again, the same way: its text, priority, voice, SSML
  /// or not, and sound icon. A value the log holds that is no longer valid is left
  /// out, so that speech-dispatcher's own setting applies.
  var announcement: Announcement {
    var result = Announcement(text ?? "", isSSML: ssml ?? false)
    result.priority = priority.flatMap(SpeechPriority.init(rawValue:)) ?? result.priority
    result.soundIcon = soundIcon.flatMap(Self.safe)
    func level(_ value: Int?) -> Int? { value.flatMap { VoiceOptions.levelRange.contains($0) ? $0 : nil } }
    result.voice = VoiceOptions(
      rate: level(rate), pitch: level(pitch), pitchRange: level(pitchRange), volume: level(volume),
      language: language.flatMap(Self.safe), voiceName: voice.flatMap(Self.safe),
      voiceType: voiceType.flatMap(VoiceOptions.VoiceType.init(rawValue:)),
      outputModule: outputModule.flatMap(Self.safe),
      punctuation: punctuation.flatMap(VoiceOptions.Punctuation.init(rawValue:)), spell: spell ?? false)
    return result
  }

  private static func safe(_ name: String) -> String? { VoiceOptions.isSafeName(name) ? name : nil }

  /// The fields that say how `announcement` is spoken, for the end of a log line: each
  /// as `,"name":value`, with only the priority when nothing else was set.
  static func fields(for announcement: Announcement) -> String {
    var text = ",\"priority\":\"\(announcement.priority.rawValue)\""
    func string(_ name: String, _ value: String?) {
      if let value { text += ",\"\(name)\":" + EventJSON.quoted(value) }
    }
    func number(_ name: String, _ value: Int?) {
      if let value { text += ",\"\(name)\":\(value)" }
    }
    if announcement.isSSML { text += ",\"ssml\":true" }
    string("soundIcon", announcement.soundIcon)
    let voice = announcement.voice
    number("rate", voice.rate)
    number("pitch", voice.pitch)
    number("pitchRange", voice.pitchRange)
    number("volume", voice.volume)
    string("language", voice.language)
    string("voice", voice.voiceName)
    string("voiceType", voice.voiceType?.rawValue)
    string("outputModule", voice.outputModule)
    string("punctuation", voice.punctuation?.rawValue)
    if voice.spell { text += ",\"spell\":true" }
    return text
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
