/// Why an announcement was not heard to the end.
public enum GiveUpReason: String, Sendable, Equatable, CaseIterable {
  /// Other speech interrupted it and kept the channel until the retry window closed.
  case interruptedOutOfTime = "interrupted-out-of-time"
  /// It was interrupted and its timeout was 0, so it was not tried again.
  case noRetry = "no-retry"
  /// speech-dispatcher stopped reporting progress: usually broken audio output.
  case stalled
  /// speech-dispatcher stopped answering: it took no message and answered no probe
  /// until the retry window closed. It is stopped (SIGSTOP) or frozen.
  case notAnswering = "not-answering"
  /// The connection to speech-dispatcher was lost.
  case disconnected
  /// The user cancelled it, for example with Ctrl-C.
  case cancelled
  /// Flood control dropped it before it was tried.
  case dropped
  /// No connection to speech-dispatcher could be made, so it was never tried: no daemon
  /// was listening at the address, or the address could not be used. The command's
  /// own failure sentence names the address and the fix.
  case unreachable
  /// The background process that was to speak it (`--detach`) could not be started, so
  /// it was never tried; the command's own failure sentence gives the system's reason.
  case notStarted = "not-started"

  /// Whether the speech service itself is unavailable: its audio output is broken
  /// (``stalled``), it stopped answering (``notAnswering``), or it went away and did not
  /// come back within the retry window (``disconnected``).
  ///
  /// This is the one place that decides it. The queue gives up every announcement
  /// waiting behind one given up for such a reason, with the same reason, since each
  /// would only wait out the same failure; a program tells its user that the service is
  /// unavailable when any announcement was given up for one.
  public var meansServiceUnavailable: Bool {
    switch self {
    case .stalled, .notAnswering, .disconnected, .unreachable: true
    case .interruptedOutOfTime, .noRetry, .cancelled, .dropped, .notStarted: false
    }
  }

  /// A short phrase for people that says what happened, such as "other speech
  /// interrupted it until its timeout ran out". It names the cause, not a fix: what to
  /// do about it depends on the program, which adds its own advice.
  public var explanation: String {
    switch self {
    case .interruptedOutOfTime: "other speech interrupted it until its timeout ran out"
    case .noRetry: "other speech interrupted it and its timeout of 0 allows no retry"
    case .stalled:
      "speech-dispatcher began but never finished speaking it, so its audio output is probably broken"
    case .notAnswering:
      "speech-dispatcher stopped answering, so it is probably stopped or frozen"
    case .disconnected: "the connection to speech-dispatcher was lost and did not come back in time"
    case .cancelled: "it was cancelled"
    case .dropped: "too many announcements were waiting, so it was skipped"
    case .unreachable: "no connection to speech-dispatcher could be made"
    case .notStarted: "the background process that was to speak it could not be started"
    }
  }

  /// What the user can do about it, or `nil` when there is nothing to add (a lost
  /// connection gets a sentence of its own that names the address).
  package var fix: String? {
    switch self {
    case .stalled:
      "check that PulseAudio or PipeWire is running and read speech-dispatcher's log in ~/.cache/speech-dispatcher/log"
    case .notAnswering: "resume a stopped one with kill -CONT, or kill it and start it again"
    case .interruptedOutOfTime, .noRetry, .disconnected, .cancelled, .dropped, .unreachable, .notStarted: nil
    }
  }

  /// What happened (its cause), followed by what the user can do about it where there
  /// is something (the fix): the end of a "Not delivered" sentence.
  package var causeAndFix: String {
    guard let fix else { return explanation }
    return "\(explanation); \(fix)"
  }

  /// The reason in a few words, as `announce history` lists it.
  package var inAFewWords: String {
    switch self {
    case .interruptedOutOfTime: "interrupted"
    case .noRetry: "interrupted, no retry"
    case .stalled: "audio stalled"
    case .notAnswering: "speech-dispatcher not answering"
    case .disconnected: "speech-dispatcher went away"
    case .cancelled: "cancelled"
    case .dropped: "skipped in a flood"
    case .unreachable: "speech-dispatcher unreachable"
    case .notStarted: "background process not started"
    }
  }
}
