/// One message we sent, and the sorting of incoming events into "ours", "early" and "stale".
///
/// speech-dispatcher can report events for a message before `say` has
/// returned its id, and a connection can receive events for messages that
/// are not ours. Until the id is known, events are held back; once it is
/// known, the held events for that id are replayed and all others dropped.
struct TrackedMessage: Equatable {
  /// How many early events are held at most; stale floods beyond this are dropped.
  static let earlyEventLimit = 64

  /// Which submission this message was sent as.
  let serial: Int
  /// The id speech-dispatcher gave it, once `say` has returned.
  private(set) var id: MessageID?
  private var earlyEvents: [SpeechEvent] = []

  init(serial: Int) { self.serial = serial }

  /// Whether speech-dispatcher has taken the message: `say` returned its id.
  var isAccepted: Bool { id != nil }

  /// Records the id for `serial` and returns the held events that belong to it.
  /// Returns `nil` when `serial` is not this message's. The driver answers each
  /// submission once: a second answer is an internal inconsistency.
  mutating func accept(serial: Int, id: MessageID) -> [SpeechEvent]? {
    guard serial == self.serial else { return nil }
    guard self.id == nil else {
      preconditionFailure("Internal inconsistency: submission \(serial) was answered twice")
    }
    self.id = id
    let ours = earlyEvents.filter { $0.messageID == id }
    earlyEvents = []
    return ours
  }

  /// Returns the event when it is about this message; holds it back while the id is unknown.
  mutating func claim(_ event: SpeechEvent) -> SpeechEvent? {
    guard let eventID = event.messageID else { return nil }
    guard let id else {
      if earlyEvents.count < Self.earlyEventLimit { earlyEvents.append(event) }
      return nil
    }
    return eventID == id ? event : nil
  }
}

/// A silent `notification`-priority message that tells whether the speech channel is quiet.
///
/// speech-dispatcher discards it with CANCEL at once while anything else is
/// speaking, and speaks it (silently) when nothing is.
struct QuietProbe: Equatable {
  /// What a probe found.
  enum Verdict: Equatable {
    /// Something else is speaking.
    case busy
    /// Nothing else is speaking.
    case quiet
  }

  private(set) var message: TrackedMessage
  /// When the probe was sent.
  let sentAt: Duration
  /// When the probe, once taken, must have been answered.
  private(set) var answerBy: Duration
  /// How long after it is taken the probe must be answered.
  private let answerBound: Duration
  /// When speech-dispatcher began to speak the probe (BEGIN); `nil` while it has not.
  private(set) var beganAt: Duration?

  init(serial: Int, sentAt: Duration, answerBy: Duration) {
    message = TrackedMessage(serial: serial)
    self.sentAt = sentAt
    self.answerBy = answerBy
    answerBound = answerBy - sentAt
  }

  /// Whether speech-dispatcher has taken the probe.
  var isAccepted: Bool { message.isAccepted }

  /// Records the probe's id, taken at `now`; see ``TrackedMessage/accept(serial:id:)``.
  ///
  /// The time to answer counts from when speech-dispatcher took the probe, not from when
  /// it was sent: a daemon stopped (SIGSTOP) for 4 s while the probe was on its way took
  /// it only once continued, and was then found stalled at once, although it went on to
  /// speak (3 of 23 runs of a real-stack test on 0.12). Until it takes the probe, the
  /// bound of a daemon that does not answer applies.
  mutating func accept(serial: Int, id: MessageID, now: Duration) -> [SpeechEvent]? {
    guard let early = message.accept(serial: serial, id: id) else { return nil }
    answerBy = max(answerBy, now + answerBound)
    return early
  }

  /// Folds one event, which came at `now`, into the probe; returns a verdict once there is one.
  mutating func verdict(after event: SpeechEvent, now: Duration) -> Verdict? {
    switch message.claim(event) {
    case .cancelled: return .busy
    case .ended: return .quiet
    case .began:
      beganAt = beganAt ?? now
      return nil
    default: return nil
    }
  }
}
