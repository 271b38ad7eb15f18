import AnnouncerCore
import FoundationEssentials
import Glibc

/// One line of `--input json`: an announcement with its own options.
///
/// ```json
/// {"text": "Saved", "timeout": 0, "priority": "message", "delay": 1}
/// ```
/// Every field but `text` is optional and falls back to the command line's value.
struct AnnouncementLine: Decodable, Sendable, Equatable {
  /// What to say.
  var text: String
  /// The retry window in seconds.
  var timeout: Double?
  /// The priority name.
  var priority: SpeechPriority?
  /// Seconds to wait before the first attempt.
  var delay: Double?
  /// Speaking rate, −100 to 100.
  var rate: Int?
  /// Pitch, −100 to 100.
  var pitch: Int?
  /// Volume, −100 to 100.
  var volume: Int?
  /// Language tag.
  var language: String?
  /// Synthesis voice name.
  var voice: String?
  /// Whether `text` is SSML.
  var ssml: Bool?
  /// Whether a retry resumes at the sentence that was cut off (`false`: it repeats the whole text).
  var resume: Bool?

  /// Decodes one line; throws a ``LineError`` with a sentence for people.
  static func decode(_ line: String) throws(LineError) -> AnnouncementLine {
    let decoded: AnnouncementLine
    do {
      decoded = try JSONDecoder().decode(AnnouncementLine.self, from: Data(line.utf8))
    } catch let error as LineError {
      throw error
    } catch {
      throw LineError("it is not a JSON object such as {\"text\": \"Saved\"}")
    }
    if InputLines.cleaned(decoded.text) == nil {
      throw LineError("the \"text\" field is empty")
    }
    for (name, value) in [("timeout", decoded.timeout), ("delay", decoded.delay)] {
      if let value, !Announcement.acceptsWait(value) {
        throw LineError("\"\(name)\" must be from 0 to 86400 seconds")
      }
    }
    for (name, value) in [("rate", decoded.rate), ("pitch", decoded.pitch), ("volume", decoded.volume)] {
      if let value, !VoiceOptions.levelRange.contains(value) {
        throw LineError("\"\(name)\" must be a whole number from -100 to 100")
      }
    }
    for (name, value) in [("language", decoded.language), ("voice", decoded.voice)] {
      if let value, !VoiceOptions.isSafeName(value) {
        throw LineError("\"\(name)\" must be one word, such as en")
      }
    }
    return decoded
  }

  private enum CodingKeys: String, CodingKey {
    case text, timeout, priority, delay, rate, pitch, volume, language, voice, ssml, resume
  }

  /// Decodes field by field, so that an error names the field it is about.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func field<T: Decodable>(_ key: CodingKeys) throws -> T? {
      do {
        return try container.decodeIfPresent(T.self, forKey: key)
      } catch {
        throw LineError("the \"\(key.stringValue)\" field has a value of the wrong kind")
      }
    }
    guard let text: String = try field(.text) else {
      throw LineError("the object has no \"text\" field")
    }
    self.text = text
    timeout = try field(.timeout)
    priority = try field(.priority)
    delay = try field(.delay)
    rate = try field(.rate)
    pitch = try field(.pitch)
    volume = try field(.volume)
    language = try field(.language)
    voice = try field(.voice)
    ssml = try field(.ssml)
    resume = try field(.resume)
  }

  /// This line as an announcement, with `defaults` for every field it leaves out.
  func announcement(defaults: Announcement) -> Announcement {
    var result = defaults
    result.text = text
    if let timeout { result.retryTimeout = .seconds(timeout) }
    if let priority { result.priority = priority }
    if let delay { result.delay = .seconds(delay) }
    if let rate { result.voice.rate = rate }
    if let pitch { result.voice.pitch = pitch }
    if let volume { result.voice.volume = volume }
    if let language { result.voice.language = language }
    if let voice { result.voice.voiceName = voice }
    if let ssml { result.isSSML = ssml }
    if let resume { result.resume = resume }
    return result
  }
}

/// Why an input line was rejected.
struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A phrase for people, such as "the object has no "text" field".
  var description: String
  /// Creates an error.
  init(_ description: String) { self.description = description }
}
