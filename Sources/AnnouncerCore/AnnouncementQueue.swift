import DequeModule

/// Names one message sent for one announcement, so that late answers can be matched.
struct SubmissionID: Hashable, Sendable {
  /// The announcement the message was sent for.
  var announcement: AnnouncementID
  /// The message's serial number within that announcement.
  var serial: Int
}

/// The FIFO queue of announcements: one is in flight at a time, the others wait.
///
/// Like ``AnnouncementStateMachine`` it is plain data. It routes each input to
/// the announcement in flight, starts the next one as soon as that one has its
/// outcome, and turns everything into ``Action``s for the driver.
struct AnnouncementQueue {
  /// What the driver must do next.
  enum Action: Equatable {
    /// Send `request`, then report the id it was given or the failure.
    case submit(SpeechRequest, SubmissionID)
    /// Cancel all our speech that is playing or waiting.
    case cancelSpeech
    /// Tell observers that this happened.
    case report(AnnouncerEvent)
    /// Hand `outcome` to whoever is waiting for announcement `id`.
    case deliver(AnnouncementID, Outcome)
  }

  private struct InFlight {
    let id: AnnouncementID
    let text: String
    var machine: AnnouncementStateMachine
  }

  private let timing: AnnouncerTiming
  private var waiting = Deque<(AnnouncementID, Announcement)>()
  private var inFlight: InFlight?

  init(timing: AnnouncerTiming) {
    self.timing = timing
  }

  /// Whether nothing is in flight or waiting.
  var isIdle: Bool { inFlight == nil && waiting.isEmpty }

  /// How many announcements wait behind the one in flight.
  var waitingCount: Int { waiting.count }

  /// The earliest time at which ``tick(now:)`` has something to do.
  var deadline: Duration? { inFlight?.machine.deadline }

  /// Adds an announcement at the back of the queue.
  mutating func enqueue(_ announcement: Announcement, id: AnnouncementID, now: Duration)
    -> [Action]
  {
    waiting.append((id, announcement))
    var actions = [
      Action.report(
        AnnouncerEvent(
          announcement: id, text: announcement.text, attempt: 0, time: now, kind: .queued))
    ]
    actions += startNextIfIdle(now: now)
    return actions
  }

  /// A message was given an id by the speech service.
  mutating func submissionAccepted(_ submission: SubmissionID, messageID: MessageID, now: Duration)
    -> [Action]
  {
    routeToInFlight(for: submission.announcement, now: now) {
      $0.submissionAccepted(serial: submission.serial, id: messageID, now: now)
    }
  }

  /// A message could not be sent.
  mutating func submissionFailed(_ submission: SubmissionID, now: Duration) -> [Action] {
    routeToInFlight(for: submission.announcement, now: now) {
      $0.submissionFailed(serial: submission.serial, now: now)
    }
  }

  /// An event from the speech backend.
  mutating func handle(_ event: SpeechEvent, now: Duration) -> [Action] {
    guard let id = inFlight?.id else { return [] }
    return routeToInFlight(for: id, now: now) { $0.handle(event, now: now) }
  }

  /// Acts on whatever deadline has passed by `now`.
  mutating func tick(now: Duration) -> [Action] {
    guard let id = inFlight?.id else { return [] }
    return routeToInFlight(for: id, now: now) { $0.tick(now: now) }
  }

  /// Cancels the announcement in flight and every waiting one.
  mutating func cancelAll(now: Duration) -> [Action] {
    var actions: [Action] = []
    if let id = inFlight?.id {
      actions += routeToInFlight(for: id, now: now, startingNext: false) { $0.cancel(now: now) }
    }
    while let (id, announcement) = waiting.popFirst() {
      actions += [
        .report(
          AnnouncerEvent(
            announcement: id, text: announcement.text, attempt: 0, time: now,
            kind: .gaveUp(.cancelled))),
        .deliver(id, .gaveUp(.cancelled)),
      ]
    }
    return actions
  }

  // MARK: Private

  private mutating func startNextIfIdle(now: Duration) -> [Action] {
    var actions: [Action] = []
    while inFlight == nil, let (id, announcement) = waiting.popFirst() {
      var machine = AnnouncementStateMachine(announcement, timing: timing)
      let steps = machine.start(now: now)
      inFlight = InFlight(id: id, text: announcement.text, machine: machine)
      actions += translate(steps, for: id, now: now)
    }
    return actions
  }

  private mutating func routeToInFlight(
    for id: AnnouncementID, now: Duration, startingNext: Bool = true,
    _ input: (inout AnnouncementStateMachine) -> [AnnouncementStateMachine.Action]
  ) -> [Action] {
    guard var current = inFlight, current.id == id else { return [] }
    let steps = input(&current.machine)
    inFlight = current
    var actions = translate(steps, for: id, now: now)
    if startingNext { actions += startNextIfIdle(now: now) }
    return actions
  }

  /// Turns one announcement's actions into queue actions, and clears it once finished.
  private mutating func translate(
    _ steps: [AnnouncementStateMachine.Action], for id: AnnouncementID, now: Duration
  ) -> [Action] {
    let attempt = inFlight?.machine.attempts ?? 0
    let text = inFlight?.text ?? ""
    func event(_ kind: AnnouncerEvent.Kind) -> Action {
      .report(AnnouncerEvent(announcement: id, text: text, attempt: attempt, time: now, kind: kind))
    }
    return steps.flatMap { step -> [Action] in
      switch step {
      case .submit(let request, let serial):
        return [.submit(request, SubmissionID(announcement: id, serial: serial))]
      case .cancelSpeech:
        return [.cancelSpeech]
      case .report(let kind):
        return [event(kind)]
      case .finish(let outcome):
        inFlight = nil
        switch outcome {
        case .spoken(_, let duration): return [event(.spoken(duration: duration)), .deliver(id, outcome)]
        case .gaveUp(let reason): return [event(.gaveUp(reason)), .deliver(id, outcome)]
        }
      }
    }
  }
}
