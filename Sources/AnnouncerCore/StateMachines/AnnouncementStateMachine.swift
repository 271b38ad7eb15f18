/// The life of one announcement, from its first attempt to its one final outcome.
///
/// This is plain data: every input is a `mutating func` that takes the current
/// time and returns the ``Action``s the driver must perform. It never sleeps,
/// never reads a clock and never talks to speech-dispatcher itself.
///
/// The rules:
/// - Before its first attempt (after any delay) the announcement takes the
///   speaking turn shared with other announcers, and gives it back with its
///   outcome; waiting for the turn does not count against the retry window.
/// - The retry window opens when the first attempt is sent and lasts the
///   announcement's `retryTimeout`. No attempt starts after it closes; an
///   attempt already speaking may finish.
/// - A long plain text is spoken in parts (see ``TextParts``). Each part is a
///   message of its own with its own turn and its own retry window; an
///   interruption repeats only the part it cut off, and the announcement is
///   heard when its last part is.
/// - A plain text (unless the announcement says otherwise) carries an index mark
///   at each sentence boundary; after an interruption, the next attempt starts
///   at the first sentence of the part whose boundary mark was not reported
///   (see ``ResumePoint``). SSML is always repeated whole.
/// - An attempt is heard when END arrives and, if the message reported any
///   index mark, our final mark was among them. CANCEL, or END without our
///   final mark, is an interruption. Once our final mark is reported the message
///   has played to its end: if END has not come
///   ``AnnouncerTiming/endAfterFinalMarkBound`` later, or a probe finds the
///   channel quiet first, the attempt is heard all the same (and our speech is
///   cancelled, so that the channel is free for what comes next).
/// - After an interruption, quiet probes are sent until the channel is
///   quiet, and it must stay quiet over ``AnnouncerTiming/settleWindow``: the
///   first probe that finds it quiet is followed by a second one that long
///   after, and only when that one finds it quiet too is the next attempt sent.
///   So a retry never cuts off the speech that interrupted it, nor starts in the
///   short silence a screen reader leaves between cancelling its own speech and
///   saying the next thing. A probe that was taken but has not begun waits in
///   speech-dispatcher's queue behind other speech, which is an answer of its own
///   (busy) until it ends or is cancelled; only one that began and is not answered
///   within ``AnnouncerTiming/probeAnswerBound`` means speech has stalled.
/// - An attempt that began is watched by evidence of progress, never by a
///   guess from its length: while neither END nor CANCEL has come, a quiet
///   probe is sent every ``AnnouncerTiming/progressCheckInterval`` after the
///   last sign of life (BEGIN, an index mark, RESUME or a busy probe). A busy
///   channel means the speech is still playing; a quiet one means our message
///   was lost without an event and counts as interrupted; a probe with no
///   answer within ``AnnouncerTiming/probeAnswerBound`` means speech has
///   stalled (with broken audio, speech-dispatcher 0.11.4 answers nothing).
/// - A message or probe that speech-dispatcher has not even taken (its `say`
///   has not returned) means speech-dispatcher is not answering at all: it is
///   stopped (SIGSTOP) or frozen. That is waited out until the retry window
///   closes, and at least ``AnnouncerTiming/acceptBound``, so that a daemon
///   continued in time (SIGCONT) takes the message and speaks; then the
///   announcement gives up as not answering. Nothing else is checked meanwhile,
///   because nothing else can reach it.
/// - A paused attempt is not watched until it resumes.
/// - When the connection is lost, the announcement waits for it to be restored
///   and then tries again politely, as after an interruption, until the window
///   closes; then it gives up as disconnected.
/// - An attempt that has not begun is checked with a probe after
///   ``AnnouncerTiming/beginBound``: if the channel is busy, it keeps waiting
///   its turn until the window closes; if it is quiet, the message was lost
///   and counts as interrupted.
///
/// Anything speech-dispatcher sends is taken as it comes: events for other
/// messages, late, repeated or out of order, are ignored or held back. The
/// driver's own inputs are not: a turn granted that was not asked for, or an
/// answer for a submission that was never asked for, is a bug in the driver and
/// stops the program (`preconditionFailure("Internal inconsistency …")`, as
/// swift-async-algorithms' `DebounceStateMachine` does) rather than going on with
/// a state nobody can reason about.
struct AnnouncementStateMachine {
  /// What the driver must do next.
  ///
  /// The driver performs the actions of one input in the order they are returned,
  /// and the order is part of the contract:
  /// - a `report` comes before the `submit` it announces (`attempt` before the
  ///   attempt is sent), so that observers see it before that message's events;
  /// - `cancelSpeech` comes before anything else that finishes or retries, so our
  ///   speech is cancelled before the backend sends the next message (its operations
  ///   run in order), which a later cancel would cut off;
  /// - `releaseTurn` comes after `cancelSpeech` and before `finish`, so another
  ///   announcer gets the turn only once our speech is stopped;
  /// - `finish` is the last action of all; nothing follows it, ever.
  enum Action: Equatable {
    /// Send `request` as submission `serial`, then report its id or failure.
    case submit(SpeechRequest, serial: Int)
    /// Take the speaking turn, then call ``turnTaken(now:)``; call ``turnBusy(now:)`` if it must be waited for.
    case takeTurn
    /// Give back the speaking turn, or stop waiting for it.
    case releaseTurn
    /// Cancel all our speech that is playing or waiting.
    case cancelSpeech
    /// Tell observers that this happened.
    case report(AnnouncerEvent.Kind)
    /// The announcement is over with this outcome. No further actions follow.
    case finish(Outcome)
  }

  private struct Attempt: Equatable {
    var message: TrackedMessage
    let sentAt: Duration
    var beganAt: Duration?
    var sawAnyMark = false
    /// When our final mark was reported: the message has played to its end, and END is due.
    var finalMarkAt: Duration?
    /// When the attempt is checked next with a probe: for BEGIN before it began,
    /// for progress after; `nil` while it is paused.
    var watchdog: Duration?
    /// A probe asking whether the channel is busy: before BEGIN, whether the
    /// attempt waits behind other speech; after, whether it is still playing.
    var check: QuietProbe?
  }

  private struct QuietWait: Equatable {
    var probe: QuietProbe?
    var nextProbeAt: Duration
    var interval: Duration
    /// When a probe last found the channel quiet, with no busy one since: the settle
    /// window runs from then; `nil` while no probe has found it quiet yet.
    var quietSince: Duration? = nil
  }

  private enum State: Equatable {
    case notStarted
    case delaying(until: Duration)
    case waitingForTurn
    case attempting(Attempt)
    case waitingForQuiet(QuietWait)
    case waitingForConnection
    case finished(Outcome)
  }

  private let announcement: Announcement
  private let timing: AnnouncerTiming
  private var state = State.notStarted
  /// Where each part of the text lies; one range for short texts and SSML.
  private let parts: [Range<String.Index>]
  private var partIndex = 0
  /// Where the next attempt at the current part starts.
  private var resumePoint: ResumePoint
  private var windowStart: Duration?
  private var firstAttemptAt: Duration?
  private var nextSerial = 0
  /// Whether the turn was asked for and not yet given back.
  private var hasTurn = false

  /// How many attempts have been sent so far, counting every part.
  private(set) var attempts = 0
  /// How many attempts the current part has had.
  private(set) var attemptsOfPart = 0

  init(_ announcement: Announcement, timing: AnnouncerTiming) {
    self.announcement = announcement
    self.timing = timing
    let whole = announcement.text.startIndex..<announcement.text.endIndex
    parts =
      announcement.isSSML || announcement.text.count <= timing.longestPart
      ? [whole] : TextParts.split(announcement.text, longest: timing.longestPart)
    resumePoint = ResumePoint(start: parts[0].lowerBound)
  }

  /// Whether attempts may start in the middle of a part.
  private var resumes: Bool { announcement.resume && !announcement.isSSML }

  /// Where the current attempt starts, in Unicode scalars from the start of the
  /// part's text (the whole text when it is spoken in one part); `nil` when it
  /// starts at the beginning.
  var resumeOffset: Int? {
    let partStart = parts[partIndex].lowerBound
    guard resumePoint.start > partStart else { return nil }
    return announcement.text.unicodeScalars.distance(from: partStart, to: resumePoint.start)
  }

  /// How many parts the text is spoken in.
  var partCount: Int { parts.count }
  /// The number of the part being spoken, from 1.
  var partNumber: Int { partIndex + 1 }
  /// The text of the part being spoken.
  var partText: String {
    parts.count == 1 ? announcement.text : String(announcement.text[parts[partIndex]])
  }

  /// The final outcome, once there is one.
  var outcome: Outcome? {
    if case .finished(let outcome) = state { return outcome }
    return nil
  }

  /// The earliest time at which ``tick(now:)`` has something to do.
  var deadline: Duration? {
    switch state {
    case .notStarted, .waitingForTurn, .finished: return nil
    case .delaying(let until): return until
    case .attempting(let attempt):
      if !attempt.message.isAccepted { return notAnsweringAt(sentAt: attempt.sentAt) }
      let check = attempt.check.map { $0.isAccepted ? $0.answerBy : notAnsweringAt(sentAt: $0.sentAt) }
      let endDue = attempt.finalMarkAt.map { $0 + timing.endAfterFinalMarkBound }
      return [attempt.watchdog, check, endDue].compactMap { $0 }.min()
    case .waitingForQuiet(let wait):
      if let probe = wait.probe, !probe.isAccepted { return notAnsweringAt(sentAt: probe.sentAt) }
      if let probe = wait.probe, probe.beganAt == nil { return windowEnd }
      let next = wait.probe.flatMap(stalledAt(probe:)) ?? wait.nextProbeAt
      return min(next, windowEnd ?? next)
    case .waitingForConnection:
      return windowEnd
    }
  }

  private var windowEnd: Duration? {
    windowStart.map { $0 + announcement.retryTimeout }
  }

  /// When a submission sent at `sentAt` that speech-dispatcher has still not taken makes
  /// it count as not answering: when the retry window closes, and no sooner than
  /// ``AnnouncerTiming/acceptBound`` after sending. One deadline for every step, so that a
  /// frozen daemon costs the window, not the wait for BEGIN (5 s) and then for a probe
  /// that cannot even be sent (2 s) one after the other.
  private func notAnsweringAt(sentAt: Duration) -> Duration {
    max(sentAt + timing.acceptBound, windowEnd ?? sentAt)
  }

  /// When a quiet probe sent while waiting for quiet, which began but has neither ended nor
  /// been cancelled, means that speech has stalled: ``AnnouncerTiming/probeAnswerBound``
  /// after its BEGIN. A probe that has not begun has no such time: it waits in
  /// speech-dispatcher's queue behind other speech, which is the busy channel it asked
  /// about. speech-dispatcher discards a `notification` message only if something speaks
  /// when it arrives (`resolve_priorities()` in src/server/speaking.c, 0.11.4 and 0.12.0
  /// alike), so a probe that comes in the instant between one message's CANCEL and the
  /// next message's start is queued, and answered only when that message ends, which
  /// may well be more than 2 s later.
  private func stalledAt(probe: QuietProbe) -> Duration? {
    probe.beganAt.map { $0 + timing.probeAnswerBound }
  }

  // MARK: Inputs

  /// Starts the announcement: waits out its delay, or sends the first attempt.
  mutating func start(now: Duration) -> [Action] {
    precondition(state == .notStarted, "An announcement starts once.")
    if announcement.delay > .zero {
      state = .delaying(until: now + announcement.delay)
      return []
    }
    return askForTurn()
  }

  /// The speaking turn asked for with ``Action/takeTurn`` is ours: the part's first
  /// attempt goes out. The driver grants only a turn that is asked for and not yet
  /// given back; anything else is an internal inconsistency.
  mutating func turnTaken(now: Duration) -> [Action] {
    guard state == .waitingForTurn else {
      preconditionFailure("Internal inconsistency: the turn was granted in state \(state), not asked for")
    }
    return sendAttempt(now: now)
  }

  /// The turn asked for with ``Action/takeTurn`` is not free yet: another announcer is
  /// speaking. The driver says so only right after it was asked.
  mutating func turnBusy(now: Duration) -> [Action] {
    guard state == .waitingForTurn else {
      preconditionFailure("Internal inconsistency: the turn was found busy in state \(state), not asked for")
    }
    return [.report(.waitingForTurn)]
  }

  /// Submission `serial` was given message id `id`.
  ///
  /// An answer for a submission sent earlier that no longer matters (a probe whose
  /// question was settled otherwise) is ignored; one for a submission never asked for,
  /// or answered twice, is an internal inconsistency.
  mutating func submissionAccepted(serial: Int, id: MessageID, now: Duration) -> [Action] {
    precondition(
      wasAskedFor(serial: serial), "Internal inconsistency: submission \(serial) was never asked for")
    switch state {
    case .attempting(var attempt):
      if let early = attempt.message.accept(serial: serial, id: id) {
        state = .attempting(attempt)
        return early.flatMap { handle($0, now: now) }
      }
      guard var probe = attempt.check, let early = probe.accept(serial: serial, id: id, now: now) else {
        return []
      }
      attempt.check = probe
      state = .attempting(attempt)
      return early.flatMap { handle($0, now: now) }
    case .waitingForQuiet(var wait):
      guard var probe = wait.probe, let early = probe.accept(serial: serial, id: id, now: now) else {
        return []
      }
      wait.probe = probe
      state = .waitingForQuiet(wait)
      return early.flatMap { handle($0, now: now) }
    case .notStarted, .delaying, .waitingForTurn, .waitingForConnection, .finished:
      return []
    }
  }

  /// Submission `serial` could not be sent: the connection is gone.
  mutating func submissionFailed(serial: Int, now: Duration) -> [Action] {
    precondition(
      wasAskedFor(serial: serial), "Internal inconsistency: submission \(serial) was never asked for")
    guard isOurs(serial: serial) else { return [] }
    return connectionLost(now: now)
  }

  /// Folds one event from the speech backend into the announcement.
  mutating func handle(_ event: SpeechEvent, now: Duration) -> [Action] {
    switch (event, state) {
    case (.connectionLost, .attempting), (.connectionLost, .waitingForQuiet):
      return connectionLost(now: now)
    case (.connectionRestored, .waitingForConnection):
      let (probe, serial) = makeProbe(now: now)
      state = .waitingForQuiet(
        QuietWait(probe: probe, nextProbeAt: now, interval: timing.firstProbeInterval))
      return [.report(.waitingForQuiet), .submit(.quietProbe, serial: serial)]
    case (.connectionLost, _), (.connectionRestored, _):
      return []
    default:
      break
    }
    switch state {
    case .attempting(var attempt):
      if var probe = attempt.check {
        let verdict = probe.verdict(after: event, now: now)
        attempt.check = verdict == nil ? probe : nil
        state = .attempting(attempt)
        if let verdict { return checkAnswered(verdict, now: now) }
      }
      guard let ours = attempt.message.claim(event) else {
        state = .attempting(attempt)
        return []
      }
      return attemptEvent(ours, attempt: attempt, now: now)
    case .waitingForQuiet(var wait):
      guard var probe = wait.probe else { return [] }
      let verdict = probe.verdict(after: event, now: now)
      wait.probe = probe
      state = .waitingForQuiet(wait)
      return verdict.map { probeAnswered($0, now: now) } ?? []
    case .notStarted, .delaying, .waitingForTurn, .waitingForConnection, .finished:
      return []
    }
  }

  /// Acts on whatever deadline has passed by `now`.
  mutating func tick(now: Duration) -> [Action] {
    switch state {
    case .notStarted, .waitingForTurn, .finished:
      return []
    case .delaying(let until):
      return now >= until ? askForTurn() : []
    case .attempting(var attempt):
      if !attempt.message.isAccepted {
        guard now >= notAnsweringAt(sentAt: attempt.sentAt) else { return [] }
        return finish(.gaveUp(.notAnswering), cancellingSpeech: true)
      }
      if let finalMarkAt = attempt.finalMarkAt, now >= finalMarkAt + timing.endAfterFinalMarkBound {
        // Played to the end, yet speech-dispatcher still holds the message (and may not
        // even take the progress check meanwhile): free the channel for what comes next.
        return [.cancelSpeech] + partHeard(attempt, now: now)
      }
      if let probe = attempt.check, !probe.isAccepted {
        guard now >= notAnsweringAt(sentAt: probe.sentAt) else { return [] }
        return finish(.gaveUp(.notAnswering), cancellingSpeech: true)
      }
      if let probe = attempt.check, now >= probe.answerBy {
        return finish(.gaveUp(.stalled), cancellingSpeech: true)
      }
      guard let watchdog = attempt.watchdog, now >= watchdog, attempt.check == nil else {
        return []
      }
      let (probe, serial) = makeProbe(now: now)
      attempt.check = probe
      attempt.watchdog = nil
      state = .attempting(attempt)
      return [.submit(.quietProbe, serial: serial)]
    case .waitingForQuiet(var wait):
      if let probe = wait.probe, !probe.isAccepted {
        guard now >= notAnsweringAt(sentAt: probe.sentAt) else { return [] }
        return finish(.gaveUp(.notAnswering), cancellingSpeech: true)
      }
      if let windowEnd, now >= windowEnd {
        return finish(.gaveUp(.interruptedOutOfTime))
      }
      if let probe = wait.probe {
        guard let stalledAt = stalledAt(probe: probe), now >= stalledAt else { return [] }
        return finish(.gaveUp(.stalled), cancellingSpeech: true)
      }
      guard now >= wait.nextProbeAt else { return [] }
      let (probe, serial) = makeProbe(now: now)
      wait.probe = probe
      state = .waitingForQuiet(wait)
      return [.submit(.quietProbe, serial: serial)]
    case .waitingForConnection:
      guard let windowEnd, now >= windowEnd else { return [] }
      return finish(.gaveUp(.disconnected))
    }
  }

  /// The user cancelled: stop our speech and give up.
  mutating func cancel(now: Duration) -> [Action] {
    switch state {
    case .finished: return []
    case .attempting, .waitingForQuiet: return finish(.gaveUp(.cancelled), cancellingSpeech: true)
    case .notStarted, .delaying, .waitingForTurn, .waitingForConnection:
      return finish(.gaveUp(.cancelled))
    }
  }

  // MARK: Transitions

  private mutating func askForTurn() -> [Action] {
    state = .waitingForTurn
    hasTurn = true
    return [.takeTurn]
  }

  private mutating func sendAttempt(now: Duration) -> [Action] {
    attempts += 1
    attemptsOfPart += 1
    if windowStart == nil { windowStart = now }
    if firstAttemptAt == nil { firstAttemptAt = now }
    let serial = takeSerial()
    state = .attempting(
      Attempt(
        message: TrackedMessage(serial: serial), sentAt: now,
        watchdog: now + timing.beginBound))
    var request = SpeechRequest(attemptOf: announcement)
    if resumes {
      // Marks are only worth their cost when a retry could follow.
      (request.text, request.marks) = resumePoint.planAttempt(
        of: announcement.text, upTo: parts[partIndex].upperBound,
        withMarks: announcement.retryTimeout > .zero)
    } else if parts.count > 1 {
      request.text = partText
    }
    return [.report(.attempt), .submit(request, serial: serial)]
  }

  /// The current part was heard: the next one keeps the turn. Giving it back
  /// between parts sent each part to the back of the line, so that 200 long texts
  /// waiting together each spoke one part per round and none finished (issue #16).
  private mutating func nextPart(now: Duration) -> [Action] {
    partIndex += 1
    attemptsOfPart = 0
    resumePoint = ResumePoint(start: parts[partIndex].lowerBound)
    windowStart = nil
    return sendAttempt(now: now)
  }

  private mutating func attemptEvent(
    _ event: SpeechEvent, attempt: Attempt, now: Duration
  )
    -> [Action]
  {
    var attempt = attempt
    switch event {
    case .began:
      attempt.beganAt = now
      // A check sent before BEGIN asked another question; its answer no longer matters.
      attempt.check = nil
      attempt.watchdog = now + timing.progressCheckInterval
      state = .attempting(attempt)
      return [.report(.begin)]
    case .paused:
      // A paused message is not stalled: nothing is checked until it resumes.
      attempt.check = nil
      attempt.watchdog = nil
      state = .attempting(attempt)
      return []
    case .resumed:
      attempt.check = nil
      attempt.watchdog = now + timing.progressCheckInterval
      state = .attempting(attempt)
      return []
    case .indexMark(_, let name):
      attempt.sawAnyMark = true
      if name == SpeechRequest.finalMarkName { attempt.finalMarkAt = attempt.finalMarkAt ?? now }
      resumePoint.markReported(name)
      if attempt.check == nil, attempt.watchdog != nil {
        attempt.watchdog = now + timing.progressCheckInterval
      }
      state = .attempting(attempt)
      return [.report(.mark(name))]
    case .ended:
      if attempt.finalMarkAt != nil || !attempt.sawAnyMark { return partHeard(attempt, now: now) }
      return interrupted(now: now)
    case .cancelled:
      return interrupted(now: now)
    case .connectionLost, .connectionRestored:
      state = .attempting(attempt)
      return []
    }
  }

  /// The current part was heard: the next part goes out, or the announcement is spoken.
  private mutating func partHeard(_ attempt: Attempt, now: Duration) -> [Action] {
    if partIndex + 1 < parts.count { return nextPart(now: now) }
    let duration = now - (firstAttemptAt ?? attempt.sentAt)
    return finish(.spoken(attempts: attempts, duration: duration))
  }

  private mutating func interrupted(now: Duration) -> [Action] {
    resumePoint.attemptInterrupted()
    if announcement.retryTimeout == .zero {
      return [.report(.interrupted)] + finish(.gaveUp(.noRetry))
    }
    if let windowEnd, now >= windowEnd {
      return [.report(.interrupted)] + finish(.gaveUp(.interruptedOutOfTime))
    }
    let (probe, serial) = makeProbe(now: now)
    state = .waitingForQuiet(
      QuietWait(probe: probe, nextProbeAt: now, interval: timing.firstProbeInterval))
    return [.report(.interrupted), .report(.waitingForQuiet), .submit(.quietProbe, serial: serial)]
  }

  private mutating func connectionLost(now: Duration) -> [Action] {
    resumePoint.attemptInterrupted()
    if announcement.retryTimeout == .zero { return finish(.gaveUp(.disconnected)) }
    if let windowEnd, now >= windowEnd { return finish(.gaveUp(.disconnected)) }
    state = .waitingForConnection
    return [.report(.waitingForConnection)]
  }

  private mutating func probeAnswered(_ verdict: QuietProbe.Verdict, now: Duration) -> [Action] {
    guard case .waitingForQuiet(var wait) = state else { return [] }
    switch verdict {
    case .quiet:
      if let windowEnd, now >= windowEnd { return finish(.gaveUp(.interruptedOutOfTime)) }
      if wait.quietSince == nil, timing.settleWindow > .zero {
        // Quiet now, but perhaps only in the gap between two messages of the same
        // speaker: ask again once the settle window has passed.
        wait.quietSince = now
        wait.probe = nil
        wait.nextProbeAt = now + timing.settleWindow
        state = .waitingForQuiet(wait)
        return []
      }
      return sendAttempt(now: now)
    case .busy:
      wait.probe = nil
      wait.quietSince = nil
      wait.nextProbeAt = now + wait.interval
      wait.interval = min(wait.interval + .milliseconds(25), timing.longestProbeInterval)
      state = .waitingForQuiet(wait)
      return []
    }
  }

  private mutating func checkAnswered(
    _ verdict: QuietProbe.Verdict, now: Duration
  )
    -> [Action]
  {
    guard case .attempting(var attempt) = state else { return [] }
    switch verdict {
    case .quiet where attempt.finalMarkAt != nil:
      // Our message played to its end and the channel is free: only its END was lost.
      return partHeard(attempt, now: now)
    case .quiet:
      // The channel is free, yet our message never began, or began and never
      // ended: it was lost without an event (speech-dispatcher 0.11.4 has such paths).
      return [.cancelSpeech] + interrupted(now: now)
    case .busy where attempt.beganAt != nil:
      // Our message is still playing: that is progress, however long it takes.
      attempt.watchdog = now + timing.progressCheckInterval
      state = .attempting(attempt)
      return []
    case .busy:
      let windowEnd = windowEnd ?? now
      if now >= windowEnd {
        let reason: GiveUpReason =
          announcement.retryTimeout == .zero ? .noRetry : .interruptedOutOfTime
        return finish(.gaveUp(reason), cancellingSpeech: true)
      }
      attempt.watchdog = min(now + timing.beginBound, windowEnd)
      state = .attempting(attempt)
      return []
    }
  }

  private mutating func finish(_ outcome: Outcome, cancellingSpeech: Bool = false) -> [Action] {
    state = .finished(outcome)
    let release: [Action] = hasTurn ? [.releaseTurn] : []
    hasTurn = false
    return (cancellingSpeech ? [.cancelSpeech] : []) + release + [.finish(outcome)]
  }

  // MARK: Helpers

  private mutating func takeSerial() -> Int {
    nextSerial += 1
    return nextSerial
  }

  private mutating func makeProbe(now: Duration) -> (QuietProbe, Int) {
    let serial = takeSerial()
    return (QuietProbe(serial: serial, sentAt: now, answerBy: now + timing.probeAnswerBound), serial)
  }

  /// Whether submission `serial` was ever asked for with a `submit` action.
  private func wasAskedFor(serial: Int) -> Bool {
    serial >= 1 && serial <= nextSerial
  }

  private func isOurs(serial: Int) -> Bool {
    switch state {
    case .attempting(let attempt):
      attempt.message.serial == serial || attempt.check?.message.serial == serial
    case .waitingForQuiet(let wait):
      wait.probe?.message.serial == serial
    case .notStarted, .delaying, .waitingForTurn, .waitingForConnection, .finished:
      false
    }
  }
}
