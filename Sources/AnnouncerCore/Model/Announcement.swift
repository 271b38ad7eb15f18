/// The priority speech-dispatcher gives a message.
///
/// The names and behaviour are speech-dispatcher's own: `text` interrupts
/// other `text`, `message` waits its turn, `important` cancels a playing
/// `message`, and `notification` and `progress` are discarded when anything
/// else is speaking.
public enum SpeechPriority: String, Sendable, CaseIterable, Codable {
  /// Cancels a playing `message` and anything of lower priority; never waits.
  case important
  /// Waits for other `message` and `important` speech.
  case message
  /// Interrupts other `text` speech, across clients.
  case text
  /// Discarded at once while anything else is speaking.
  case notification
  /// Like `notification`, but the last progress message of a series is kept.
  case progress
}

/// How a voice should sound. `nil` leaves speech-dispatcher's setting alone.
public struct VoiceOptions: Sendable, Equatable, Hashable {
  /// Whether `name` can safely be sent to speech-dispatcher as a language, voice, module
  /// or sound-icon name: one word of printable characters. Anything else could carry
  /// protocol commands (a line break) to speech-dispatcher.
  package static func isSafeName(_ name: String) -> Bool {
    !name.isEmpty && name.count <= 100
      && name.unicodeScalars.allSatisfy { scalar in
        scalar.value > 0x20 && scalar.value != 0x7F && !(0x80..<0xA0).contains(scalar.value)
          && scalar != "\"" && !scalar.properties.isWhitespace
      }
  }

  /// The range of rate, pitch, pitch range and volume.
  public static let levelRange: ClosedRange<Int> = -100...100

  /// Speaking rate, −100 (slowest) to 100 (fastest).
  public var rate: Int?
  /// Voice pitch, −100 to 100.
  public var pitch: Int?
  /// Pitch range, −100 to 100.
  public var pitchRange: Int?
  /// Volume, −100 to 100.
  public var volume: Int?
  /// Language as an IETF tag such as `en` or `de`.
  public var language: String?
  /// A synthesis voice name, as the speech service lists it.
  public var voiceName: String?
  /// A symbolic voice type such as `male1` or `child_female`.
  public var voiceType: VoiceType?
  /// The output module, such as `espeak-ng`.
  public var outputModule: String?
  /// How much punctuation is spoken.
  public var punctuation: Punctuation?
  /// Whether the text is spelled out letter by letter.
  public var spell: Bool

  /// Creates voice options; every parameter defaults to "leave as is".
  public init(
    rate: Int? = nil, pitch: Int? = nil, pitchRange: Int? = nil, volume: Int? = nil,
    language: String? = nil, voiceName: String? = nil, voiceType: VoiceType? = nil,
    outputModule: String? = nil, punctuation: Punctuation? = nil, spell: Bool = false
  ) {
    self.rate = rate
    self.pitch = pitch
    self.pitchRange = pitchRange
    self.volume = volume
    self.language = language
    self.voiceName = voiceName
    self.voiceType = voiceType
    self.outputModule = outputModule
    self.punctuation = punctuation
    self.spell = spell
  }

  /// speech-dispatcher's symbolic voice types.
  public enum VoiceType: String, Sendable, CaseIterable, Codable {
    /// The first male voice.
    case male1
    /// The second male voice.
    case male2
    /// The third male voice.
    case male3
    /// The first female voice.
    case female1
    /// The second female voice.
    case female2
    /// The third female voice.
    case female3
    /// A child's male voice.
    case childMale = "child_male"
    /// A child's female voice.
    case childFemale = "child_female"
  }

  /// speech-dispatcher's punctuation levels.
  public enum Punctuation: String, Sendable, CaseIterable, Codable {
    /// No punctuation is spoken.
    case none
    /// Some punctuation is spoken.
    case some
    /// Most punctuation is spoken.
    case most
    /// All punctuation is spoken.
    case all
  }
}

/// One thing to say, with everything that decides how and how hard it is tried.
public struct Announcement: Sendable, Equatable {
  /// The longest timeout or delay accepted, in seconds: one day.
  package static let longestWait: Double = 86_400

  /// The retry window when none is given: 3 seconds, as in AccessibilityAnnouncer.
  public static let defaultRetryTimeout: Duration = .seconds(3)

  /// Whether `seconds` is an acceptable timeout or delay: from 0 to ``longestWait``.
  package static func acceptsWait(_ seconds: Double) -> Bool {
    seconds.isFinite && seconds >= 0 && seconds <= longestWait
  }

  /// What to say: plain text, or an SSML document when `isSSML` is true.
  public var text: String
  /// Whether `text` is SSML rather than plain text.
  public var isSSML: Bool

  /// The announcement as it is spoken: plain text made speakable (see
  /// ``SpeakableText``), SSML as it is. This is the one place that happens: the
  /// announcer speaks this, and its events, logs and history carry the same text.
  package var asSpoken: Announcement {
    var spoken = self
    if !spoken.isSSML { spoken.text = SpeakableText.cleaned(spoken.text) }
    return spoken
  }
  /// The priority each attempt is sent with.
  public var priority: SpeechPriority
  /// The retry window, counted from the start of the first attempt. Zero means no retry.
  ///
  /// Unless set, it is the ``Announcer``'s default, which is ``defaultRetryTimeout``
  /// unless the announcer was made with another.
  public var retryTimeout: Duration {
    get { chosenRetryTimeout ?? Self.defaultRetryTimeout }
    set { chosenRetryTimeout = newValue }
  }
  /// The retry window given by the caller; `nil` takes the announcer's default.
  package private(set) var chosenRetryTimeout: Duration?
  /// How long to wait before the first attempt.
  public var delay: Duration
  /// The voice each attempt is spoken with.
  public var voice: VoiceOptions
  /// A sound icon played before the text, or `nil`.
  public var soundIcon: String?
  /// Whether a retry after an interruption resumes at the sentence that was cut
  /// off, rather than repeating the whole text. Only plain text resumes; SSML is
  /// always repeated whole.
  public var resume: Bool

  /// Creates an announcement. The defaults match the command line's; with no
  /// `retryTimeout`, the announcer's default applies.
  public init(
    _ text: String, isSSML: Bool = false, priority: SpeechPriority = .text,
    retryTimeout: Duration? = nil, delay: Duration = .zero,
    voice: VoiceOptions = VoiceOptions(), soundIcon: String? = nil, resume: Bool = true
  ) {
    self.resume = resume
    self.text = text
    self.isSSML = isSSML
    self.priority = priority
    self.chosenRetryTimeout = retryTimeout
    self.delay = delay
    self.voice = voice
    self.soundIcon = soundIcon
  }
}

/// Identifies one announcement within an ``Announcer``, in the order they were queued.
public struct AnnouncementID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The position in queueing order, starting at 1.
  public let rawValue: Int
  /// Wraps a raw sequence number.
  public init(_ rawValue: Int) { self.rawValue = rawValue }
  /// Earlier-queued announcements come first.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  /// The sequence number as text.
  public var description: String { String(rawValue) }
}

/// The final outcome of one announcement. Every announcement gets exactly one.
public enum Outcome: Sendable, Equatable {
  /// Heard to the end, after `attempts` tries (counting every part of a long text),
  /// `duration` after the first attempt started.
  case spoken(attempts: Int, duration: Duration)
  /// Not heard to the end.
  case gaveUp(GiveUpReason)

  /// Whether the announcement was heard to the end.
  public var wasSpoken: Bool {
    if case .spoken = self { return true }
    return false
  }
}
