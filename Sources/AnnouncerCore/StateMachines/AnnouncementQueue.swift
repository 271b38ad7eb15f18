import DequeModule

/// Names one message sent for one announcement, so that late answers can be matched.
package struct SubmissionID: Hashable, Sendable {
  /// The announcement the message was sent for.
  package var announcement: AnnouncementID
  /// The message's serial number within that announcement.
  package var serial: Int
}

/// The FIFO queue of announcements: one is in flight at a time, the others wait.
///
/// Like ``AnnouncementStateMachine`` it is plain data. It routes each input to
/// the announcement in flight, starts the next one as soon as that one has its
/// outcome, and turns everything into ``Action``s for the driver.
///
/// Flood control, when `maxWaiting` is set:
/// - an announcement equal to one still waiting is merged into it: it gets
///   that one's outcome and is not spoken twice;
/// - when more than `maxWaiting` wait, the oldest waiting one is dropped;
/// - before the next announcement after a drop, a short summary such as
///   "12 messages skipped" is spoken, as an announcement of its own with a
///   negative id.
///
/// An unavailable speech service: once an announcement is given up for a reason that
/// ``GiveUpReason/meansServiceUnavailable`` (its audio output broken, speech-dispatcher
/// not answering, or gone and not back within the window), every announcement still
/// waiting is given up at once for the same reason, instead of each paying for the same
/// failure with a window of its own: 50 lines behind a daemon killed for good with a
/// 30 s timeout took 25 minutes to fail one by one. One that arrives later is tried as
/// usual: that attempt is the check whether the service has come back.
///
/// ``Announcer`` drives it with real time and a real backend. It is public so
/// that it can also be driven by hand, as the tests and the core benchmark do.
package struct AnnouncementQueue: Sendable {
  /// What the driver must do next.
  ///
  /// The driver performs the actions of one input in the order they are returned. Those
  /// of one announcement keep their order (see ``AnnouncementStateMachine/Action``);
  /// then an announcement's `report` of its outcome comes before its `deliver`, so that
  /// whoever awaits the outcome has every event by then, and the outcomes of those given
  /// up along with it follow its own, which counts them (``AnnouncerEvent/givenUpAlong``);
  /// the next announcement's actions come last, after every `cancelSpeech` of the one
  /// before, so that cancelling the old speech never cuts off the new.
  package enum Action: Equatable, Sendable {
    /// Send `request`, then report the id it was given or the failure.
    case submit(SpeechRequest, SubmissionID)
    /// Cancel all our speech that is playing or waiting.
    case cancelSpeech
    /// Take the speaking turn for announcement `id`, then call ``turnTaken(_:now:)``,
    /// or ``turnBusy(_:now:)`` first when it must be waited for.
    case takeTurn(AnnouncementID)
    /// Give back the speaking turn, or stop waiting for it.
    case releaseTurn(AnnouncementID)
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
  private let maxWaiting: Int?
  private var waiting = Deque<(AnnouncementID, Announcement)>()
  private var inFlight: InFlight?
  /// Announcements merged into a waiting one, by the id they were merged into: how
  /// many, and the ids of those whose outcome somebody awaits. Ids nobody awaits
  /// are not kept, so a flood of one repeated line takes no memory.
  private var mergedInto: [AnnouncementID: (count: Int, awaited: [AnnouncementID])] = [:]
  /// How many were dropped since the last summary was spoken.
  private var skippedSinceSummary = 0
  private var lastSummaryID = 0
  private let summaryWording: SummaryWording

  /// Creates an empty queue; `maxWaiting` turns on flood control, whose summary is said
  /// in `summaryWording`.
  package init(
    timing: AnnouncerTiming = AnnouncerTiming(), maxWaiting: Int? = nil,
    summaryWording: SummaryWording = .english
  ) {
    precondition(maxWaiting.map { $0 >= 1 } ?? true, "At least one announcement may wait.")
    self.timing = timing
    self.maxWaiting = maxWaiting
    self.summaryWording = summaryWording
  }

  /// Whether nothing is in flight or waiting.
  package var isIdle: Bool { inFlight == nil && waiting.isEmpty }

  /// How many announcements wait behind the one in flight.
  package var waitingCount: Int { waiting.count }

  /// The earliest time at which ``tick(now:)`` has something to do.
  package var deadline: Duration? { inFlight?.machine.deadline }

  /// Adds an announcement at the back of the queue.
  ///
  /// - Parameter awaited: whether somebody waits for this announcement's
  ///   outcome; only then does a merged announcement get a `deliver` action.
  package mutating func enqueue(
    _ announcement: Announcement, id: AnnouncementID, now: Duration, awaited: Bool = true
  ) -> [Action] {
    func event(_ kind: AnnouncerEvent.Kind, for id: AnnouncementID, _ text: String) -> Action {
      .report(AnnouncerEvent(announcement: id, text: text, attempt: 0, time: now, kind: kind))
    }
    if maxWaiting != nil, let twin = waiting.first(where: { $0.1 == announcement })?.0 {
      mergedInto[twin, default: (0, [])].count += 1
      if awaited { mergedInto[twin, default: (0, [])].awaited.append(id) }
      return [event(.merged(into: twin), for: id, announcement.text)]
    }
    waiting.append((id, announcement))
    var actions = [event(.queued, for: id, announcement.text)]
    if let maxWaiting, waiting.count > maxWaiting, let (oldest, dropped) = waiting.popFirst() {
      skippedSinceSummary += 1 + (mergedInto[oldest]?.count ?? 0)
      actions += [event(.gaveUp(.dropped), for: oldest, dropped.text)]
      actions += deliver(.gaveUp(.dropped), to: oldest)
    }
    actions += startNextIfIdle(now: now)
    return actions
  }

  /// The speaking turn asked for with ``Action/takeTurn(_:)`` is ours. The driver grants
  /// only a turn asked for and not given back: for any other announcement than the one in
  /// flight, that is an internal inconsistency.
  package mutating func turnTaken(_ id: AnnouncementID, now: Duration) -> [Action] {
    requireInFlight(id, for: "granted the turn")
    return routeToInFlight(for: id, now: now) { $0.turnTaken(now: now) }
  }

  /// The speaking turn asked for is held by another announcer; we wait.
  package mutating func turnBusy(_ id: AnnouncementID, now: Duration) -> [Action] {
    requireInFlight(id, for: "told the turn is busy")
    return routeToInFlight(for: id, now: now) { $0.turnBusy(now: now) }
  }

  /// A message was given an id by the speech service.
  package mutating func submissionAccepted(
    _ submission: SubmissionID, messageID: MessageID, now: Duration
  )
    -> [Action]
  {
    routeToInFlight(for: submission.announcement, now: now) {
      $0.submissionAccepted(serial: submission.serial, id: messageID, now: now)
    }
  }

  /// A message could not be sent.
  package mutating func submissionFailed(_ submission: SubmissionID, now: Duration) -> [Action] {
    routeToInFlight(for: submission.announcement, now: now) {
      $0.submissionFailed(serial: submission.serial, now: now)
    }
  }

  /// An event from the speech backend.
  package mutating func handle(_ event: SpeechEvent, now: Duration) -> [Action] {
    guard let id = inFlight?.id else { return [] }
    return routeToInFlight(for: id, now: now) { $0.handle(event, now: now) }
  }

  /// Acts on whatever deadline has passed by `now`.
  package mutating func tick(now: Duration) -> [Action] {
    guard let id = inFlight?.id else { return [] }
    return routeToInFlight(for: id, now: now) { $0.tick(now: now) }
  }

  /// Cancels the announcement in flight and every waiting one.
  package mutating func cancelAll(now: Duration) -> [Action] {
    var actions: [Action] = []
    if let id = inFlight?.id {
      actions += routeToInFlight(for: id, now: now, startingNext: false) { $0.cancel(now: now) }
    }
    actions += giveUpWaiting(.cancelled, along: nil, now: now).actions
    skippedSinceSummary = 0
    return actions
  }

  // MARK: Private

  /// Gives up every waiting announcement for `reason`, along with announcement `leader`
  /// when there is one; returns how many that was, counting those merged into them, and
  /// the actions that say so.
  private mutating func giveUpWaiting(
    _ reason: GiveUpReason, along leader: AnnouncementID?, now: Duration
  )
    -> (count: Int, actions: [Action])
  {
    var count = 0
    var actions: [Action] = []
    while let (id, announcement) = waiting.popFirst() {
      count += 1 + (mergedInto[id]?.count ?? 0)
      var event = AnnouncerEvent(
        announcement: id, text: announcement.text, attempt: 0, time: now, kind: .gaveUp(reason))
      event.givenUpWith = leader
      actions.append(.report(event))
      actions += deliver(.gaveUp(reason), to: id)
    }
    return (count, actions)
  }

  private func requireInFlight(_ id: AnnouncementID, for input: String) {
    guard inFlight?.id == id else {
      preconditionFailure("Internal inconsistency: announcement \(id) was \(input) while not in flight")
    }
  }

  private mutating func startNextIfIdle(now: Duration) -> [Action] {
    var actions: [Action] = []
    while inFlight == nil, let (id, announcement) = nextToStart() {
      var machine = AnnouncementStateMachine(announcement, timing: timing)
      let steps = machine.start(now: now)
      inFlight = InFlight(id: id, text: announcement.text, machine: machine)
      actions += translate(steps, for: id, now: now)
    }
    return actions
  }

  /// The next announcement to start: a summary of what was skipped, or the oldest waiting one.
  private mutating func nextToStart() -> (AnnouncementID, Announcement)? {
    guard skippedSinceSummary > 0, let next = waiting.first?.1 else { return waiting.popFirst() }
    let count = skippedSinceSummary
    skippedSinceSummary = 0
    lastSummaryID -= 1
    var voice = next.voice
    voice.spell = false
    voice.language = summaryWording.language ?? voice.language
    let summary = Announcement(
      summaryWording.sentence(count), priority: next.priority,
      retryTimeout: next.retryTimeout, voice: voice)
    return (AnnouncementID(lastSummaryID), summary)
  }

  /// Hands `outcome` to announcement `id` and to every announcement merged into it.
  private mutating func deliver(_ outcome: Outcome, to id: AnnouncementID) -> [Action] {
    let merged = mergedInto.removeValue(forKey: id)?.awaited ?? []
    return [.deliver(id, outcome)] + merged.map { .deliver($0, outcome) }
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
    guard let current = inFlight else { return [] }
    func event(_ kind: AnnouncerEvent.Kind) -> Action {
      // The events of one part's attempts carry that part's text; the others the whole text.
      let ofPart: Bool
      switch kind {
      case .queued, .merged, .spoken, .gaveUp: ofPart = false
      default: ofPart = current.machine.partCount > 1
      }
      var event = AnnouncerEvent(
        announcement: id, text: ofPart ? current.machine.partText : current.text,
        attempt: current.machine.attemptsOfPart, time: now, kind: kind,
        part: current.machine.partNumber, parts: current.machine.partCount)
      if kind == .attempt { event.resumeAt = current.machine.resumeOffset }
      return .report(event)
    }
    return steps.flatMap { step -> [Action] in
      switch step {
      case .submit(let request, let serial):
        return [.submit(request, SubmissionID(announcement: id, serial: serial))]
      case .cancelSpeech:
        return [.cancelSpeech]
      case .takeTurn:
        return [.takeTurn(id)]
      case .releaseTurn:
        return [.releaseTurn(id)]
      case .report(let kind):
        return [event(kind)]
      case .finish(let outcome):
        inFlight = nil
        switch outcome {
        case .spoken(_, let duration): return [event(.spoken(duration: duration))] + deliver(outcome, to: id)
        case .gaveUp(let reason) where reason.meansServiceUnavailable:
          let behind = giveUpWaiting(reason, along: id, now: now)
          var leader = event(.gaveUp(reason))
          if case .report(var report) = leader {
            report.givenUpAlong = behind.count
            leader = .report(report)
          }
          return [leader] + deliver(outcome, to: id) + behind.actions
        case .gaveUp(let reason): return [event(.gaveUp(reason))] + deliver(outcome, to: id)
        }
      }
    }
  }
}
