/// One message for a speech backend to say.
public struct SpeechRequest: Sendable, Equatable {
  /// What the message is for.
  public enum Purpose: Sendable, Equatable {
    /// An attempt to speak an announcement; the backend appends ``SpeechRequest/finalMarkName``.
    case announcement
    /// A short, silent `notification`-priority message that tells whether the channel is quiet.
    case quietProbe
  }

  /// The name of the index mark the backend places at the end of every announcement.
  public static let finalMarkName = "announce-final"

  /// What the message is for.
  public var purpose: Purpose
  /// The text, plain or SSML (see `isSSML`); empty for a probe.
  public var text: String
  /// Whether `text` is an SSML document.
  public var isSSML: Bool
  /// The priority to send the message with.
  public var priority: SpeechPriority
  /// The voice to speak it with.
  public var voice: VoiceOptions
  /// A sound icon to play first, or `nil`.
  public var soundIcon: String?
  /// Index marks to place inside a plain `text`, in order, besides the final mark:
  /// where a retry may resume. Empty for SSML.
  public var marks: [IndexMark] = []

  /// A named index mark placed before the character at `offset` (counted in
  /// `Character`s of the request's text).
  public struct IndexMark: Sendable, Equatable {
    /// The name the speech service reports when it reaches the mark.
    public var name: String
    /// How many characters of the text come before the mark.
    public var offset: Int

    /// Creates a mark named `name` before character `offset`.
    public init(name: String, offset: Int) {
      self.name = name
      self.offset = offset
    }
  }

  /// A request to speak one attempt of `announcement`.
  package init(attemptOf announcement: Announcement) {
    purpose = .announcement
    text = announcement.text
    isSSML = announcement.isSSML
    priority = announcement.priority
    voice = announcement.voice
    soundIcon = announcement.soundIcon
  }

  /// A quiet probe: silent, at `notification` priority, so speech-dispatcher
  /// discards it at once while anything else is speaking.
  package static let quietProbe = SpeechRequest(
    purpose: .quietProbe, text: "", isSSML: true, priority: .notification,
    voice: VoiceOptions(), soundIcon: nil)

  private init(
    purpose: Purpose, text: String, isSSML: Bool, priority: SpeechPriority,
    voice: VoiceOptions, soundIcon: String?
  ) {
    self.purpose = purpose
    self.text = text
    self.isSSML = isSSML
    self.priority = priority
    self.voice = voice
    self.soundIcon = soundIcon
  }
}

/// Why a backend could not send a message.
public struct SpeechBackendError: Error, Sendable, Equatable, CustomStringConvertible {
  /// One plain sentence for people.
  public var description: String
  /// Creates an error with a sentence for people.
  public init(_ description: String) { self.description = description }
}

/// Something that can speak messages and report what happened to them.
///
/// ``SpeechdClient`` is the real one. A backend only relays: it sends what it
/// is asked to and turns whatever the speech service reports into
/// ``SpeechEvent``s. It makes no decisions.
public protocol SpeechBackend: Sendable {
  /// Every event the speech service reports, in the order it reported them.
  var events: AsyncStream<SpeechEvent> { get }
  /// Sends one message and returns the id the service gave it.
  func say(_ request: SpeechRequest) async throws(SpeechBackendError) -> MessageID
  /// Cancels every message of ours that is speaking or waiting.
  func cancelAll() async
  /// Closes the connection and finishes ``events``.
  func close() async
}
