/// The bounds and intervals the announcer works with.
///
/// The defaults come from measurements of speech-dispatcher 0.11.4 with
/// espeak-ng (see the README's "How announce decides" section).
public struct AnnouncerTiming: Sendable, Equatable {
  /// The first pause between quiet probes while the channel is busy.
  ///
  /// A retry waits up to this long for the first probe after the other speech ends,
  /// then ``settleWindow`` and two probes. Measured with speech-dispatcher 0.11.4, from
  /// the END the interrupting client receives to the retry's BEGIN: median 71 ms, at most
  /// 112 ms (10 runs), within the goal of 150 ms; with 100 ms and no settle window it was
  /// 3 ms and 58 ms. The price is up to 20 silent `notification` messages a second while
  /// other speech plays, each discarded by speech-dispatcher within about 1 ms.
  public var firstProbeInterval: Duration = .milliseconds(50)
  /// The longest pause between quiet probes.
  public var longestProbeInterval: Duration = .milliseconds(50)
  /// How long the channel must stay quiet before a retry: after a quiet probe finds it
  /// quiet, a second one is sent this long after, and only when that one finds it quiet
  /// too is the announcement sent again; 0 retries on the first quiet probe.
  ///
  /// A screen reader leaves a short silence between cancelling its own speech and
  /// saying the next thing: the real Orca 43.1, with key echo off, sends `CANCEL self`
  /// and its next message about 27 ms later, and up to about 50 ms was seen. A retry
  /// sent in that silence (1 of 7 runs measured without this window) had to be cut off
  /// by Orca's next message, which was then heard 103 ms after the key instead of about
  /// 50 ms. 70 ms is the longest gap seen plus 20 ms for a loaded machine's scheduling,
  /// and costs each retry 70 ms: the quiet probe takes about 0–6 ms on an idle channel
  /// (speech-dispatcher 0.11.4 and 0.12); see ``firstProbeInterval`` for the latency.
  public var settleWindow: Duration = .milliseconds(70)
  /// How long a quiet probe may go without any answer before speech counts as stalled;
  /// while waiting for quiet, counted from the probe's BEGIN, since a probe that has not
  /// begun waits behind other speech.
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
  /// How long END may take after our final mark before the attempt counts as heard
  /// without it.
  ///
  /// The final mark stands at the very end of every message, and speech-dispatcher
  /// reports it when playback reaches it: END followed 0.33 s later on 0.11.4 and 0.12
  /// alike. Under pipewire-pulse, on a sink that reports no latency (a null sink, such as
  /// the dummy output of a machine with no sound card), speech-dispatcher 0.12 waits for
  /// the last few milliseconds of every message to play, which pipewire-pulse keeps back,
  /// and END never comes (docs/speech-dispatcher.md, "PipeWire"): without this bound,
  /// announce waited for ever.
  public var endAfterFinalMarkBound: Duration = .seconds(2)
  /// The most characters one message holds; longer plain texts are spoken in parts.
  public var longestPart: Int = TextParts.longestPart

  /// The defaults.
  public init() {}
}
