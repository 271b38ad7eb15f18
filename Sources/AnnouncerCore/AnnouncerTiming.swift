/// The bounds and intervals the announcer works with.
///
/// The defaults come from measurements of speech-dispatcher 0.11.4 with
/// espeak-ng (see the README's "How announce decides" section).
public struct AnnouncerTiming: Sendable, Equatable {
  /// The first pause between quiet probes while the channel is busy.
  public var firstProbeInterval: Duration = .milliseconds(100)
  /// The longest pause between quiet probes.
  public var longestProbeInterval: Duration = .milliseconds(200)
  /// How long a quiet probe may go without any answer before speech counts as stalled.
  public var probeAnswerBound: Duration = .seconds(2)
  /// How long an attempt may go without BEGIN before announce checks whether the channel is busy.
  public var beginBound: Duration = .seconds(5)
  /// Added to the expected speaking time to give the bound for END after BEGIN.
  public var stallMargin: Duration = .seconds(4)
  /// A slow speaking speed in characters per second, used to expect how long text takes.
  public var slowCharactersPerSecond: Double = 8

  /// The defaults.
  public init() {}

  /// How long `announcement` should take to speak at worst, before the margin.
  func expectedSpeakingTime(of announcement: Announcement) -> Duration {
    let rate = announcement.voice.rate ?? 0
    let slowdown = rate < 0 ? 1 + Double(-rate) / 50 : 1
    let perCharacter = slowdown / slowCharactersPerSecond
    let spelled = announcement.voice.spell ? 3.0 : 1.0
    return .seconds(Double(announcement.text.count) * perCharacter * spelled)
  }
}
