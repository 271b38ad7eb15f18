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
  /// How long speech-dispatcher may take to take a message (answer its SPEAK command)
  /// before it counts as not answering, when the retry window closes earlier. Measured:
  /// it answers within about 5 ms; one that is stopped (SIGSTOP) or frozen never does.
  public var acceptBound: Duration = .seconds(2)
  /// How long an attempt may go without BEGIN before announce checks whether the channel is busy.
  public var beginBound: Duration = .seconds(5)
  /// How long a playing attempt may go without a sign of progress before a quiet
  /// probe asks whether it is still playing. Measured: a probe sent while our own
  /// message plays is CANCELled within about 1 ms, and the message plays on.
  public var progressCheckInterval: Duration = .seconds(1)
  /// The most characters one message holds; longer plain texts are spoken in parts.
  public var longestPart: Int = TextParts.longestPart

  /// The defaults.
  public init() {}
}
