/// The bounds and intervals the announcer works with.
///
/// The defaults come from measurements of speech-dispatcher 0.11.4 with
/// espeak-ng (see the README's "How announce decides" section).
public struct AnnouncerTiming: Sendable, Equatable {
  /// The first pause between quiet probes while the channel is busy.
  public var firstProbeInterval: Duration = .milliseconds(100)
  /// The longest pause between quiet probes.
  public var longestProbeInterval: Duration = .milliseconds(100)
  /// How long a quiet probe may go without any answer before speech counts as stalled.
  public var probeAnswerBound: Duration = .seconds(2)
  /// How long an attempt may go without BEGIN before announce checks whether the channel is busy.
  public var beginBound: Duration = .seconds(5)
  /// Added to the expected speaking time to give the bound for END after BEGIN.
  public var stallMargin: Duration = .seconds(4)
  /// The most characters one message holds; longer plain texts are spoken in parts.
  public var longestPart: Int = TextParts.longestPart
  /// A slow speaking speed in characters per second, used to expect how long text takes.
  public var slowCharactersPerSecond: Double = 8

  /// The defaults.
  public init() {}

  /// How long `announcement`, spoken in one piece, should take at worst, before the margin.
  func expectedSpeakingTime(of announcement: Announcement) -> Duration {
    expectedSpeakingTime(of: announcement.text.count, voice: announcement.voice)
  }

  /// How long `characters` characters should take to speak with `voice` at worst, before the margin.
  func expectedSpeakingTime(of characters: Int, voice: VoiceOptions) -> Duration {
    let rate = voice.rate ?? 0
    let slowdown = rate < 0 ? 1 + Double(-rate) / 50 : 1
    let perCharacter = slowdown / slowCharactersPerSecond
    let spelled = voice.spell ? 3.0 : 1.0
    return .seconds(Double(characters) * perCharacter * spelled)
  }
}
