import Foundation

/// One line of `--input json`: an announcement with its own options.
///
/// ```json
/// {"text": "Saved", "timeout": 0, "priority": "message", "delay": 1}
/// ```
/// Every field but `text` is optional and falls back to the command line's value.
public struct AnnouncementLine: Decodable, Sendable, Equatable {
  /// What to say.
  public var text: String
  /// The retry window in seconds.
  public var timeout: Double?
  /// The priority name.
  public var priority: SpeechPriority?
  /// Seconds to wait before the first attempt.
  public var delay: Double?
  /// Speaking rate, −100 to 100.
  public var rate: Int?
  /// Pitch, −100 to 100.
  public var pitch: Int?
  /// Volume, −100 to 100.
  public var volume: Int?
  /// Language tag.
  public var language: String?
  /// Synthesis voice name.
  public var voice: String?
  /// Whether `text` is SSML.
  public var ssml: Bool?

  /// Decodes one line; throws a ``LineError`` with a sentence for people.
  public static func decode(_ line: String) throws(LineError) -> AnnouncementLine {
    let decoded: AnnouncementLine
    do {
      decoded = try JSONDecoder().decode(AnnouncementLine.self, from: Data(line.utf8))
    } catch let DecodingError.keyNotFound(key, _) {
      throw LineError("the object has no \"\(key.stringValue)\" field")
    } catch let DecodingError.typeMismatch(_, context) {
      throw LineError("the field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type")
    } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
      throw LineError(
        "the field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has an invalid value")
    } catch {
      throw LineError("it is not a JSON object such as {\"text\": \"Saved\"}")
    }
    if let timeout = decoded.timeout, !(timeout.isFinite && timeout >= 0) {
      throw LineError("\"timeout\" must be 0 or more seconds")
    }
    if let delay = decoded.delay, !(delay.isFinite && delay >= 0) {
      throw LineError("\"delay\" must be 0 or more seconds")
    }
    for (name, value) in [("rate", decoded.rate), ("pitch", decoded.pitch), ("volume", decoded.volume)] {
      if let value, !(-100...100).contains(value) {
        throw LineError("\"\(name)\" must be a whole number from -100 to 100")
      }
    }
    return decoded
  }

  /// This line as an announcement, with `defaults` for every field it leaves out.
  public func announcement(defaults: Announcement) -> Announcement {
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
    return result
  }
}

/// Why an input line was rejected.
public struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A phrase for people, such as "the object has no "text" field".
  public var description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
