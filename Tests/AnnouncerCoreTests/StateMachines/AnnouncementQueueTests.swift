import Testing

@testable import AnnouncerCore

/// The FIFO queue around the per-announcement machine.
@Suite struct AnnouncementQueueTests {
  typealias Action = AnnouncementQueue.Action

  func submissions(_ actions: [Action]) -> [(SpeechRequest, SubmissionID)] {
    actions.compactMap {
      if case .submit(let request, let submission) = $0 { return (request, submission) }
      return nil
    }
  }

  func deliveries(_ actions: [Action]) -> [(AnnouncementID, Outcome)] {
    actions.compactMap {
      if case .deliver(let id, let outcome) = $0 { return (id, outcome) }
      return nil
    }
  }

  func eventKinds(_ actions: [Action]) -> [String] {
    actions.compactMap {
      if case .report(let event) = $0 { return "\(event.announcement):\(event.kind.name)" }
      return nil
    }
  }

  @Test func announcementsAreSpokenOneAtATimeInOrder() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    let texts = ["one", "two", "three"]
    var actions: [Action] = []
    for (index, text) in texts.enumerated() {
      actions += queue.enqueue(Announcement(text), id: AnnouncementID(index + 1), now: .zero)
    }
    #expect(submissions(actions).map(\.0.text) == ["one"])
    #expect(queue.waitingCount == 2)

    var spoken: [String] = []
    var now = Duration.zero
    var pending = submissions(actions)
    var messageID = 10
    while let (request, submission) = pending.first {
      messageID += 1
      now += .seconds(1)
      spoken.append(request.text)
      var step = queue.submissionAccepted(submission, messageID: messageID, now: now)
      step += queue.handle(.began(messageID), now: now)
      step += queue.handle(.indexMark(messageID, name: SpeechRequest.finalMarkName), now: now)
      step += queue.handle(.ended(messageID), now: now)
      #expect(deliveries(step).map(\.0) == [submission.announcement])
      pending = submissions(step)
    }
    #expect(spoken == texts)
    #expect(queue.isIdle)
    #expect(queue.deadline == nil)
  }

  @Test func eventsAreReportedInOrderWithAttemptNumbers() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    let id = AnnouncementID(1)
    var actions = queue.enqueue(Announcement("Saved"), id: id, now: .zero)
    let (_, first) = submissions(actions)[0]
    actions += queue.submissionAccepted(first, messageID: 5, now: .zero)
    actions += queue.handle(.began(5), now: .milliseconds(5))
    actions += queue.handle(.cancelled(5), now: .milliseconds(100))
    let (_, probe) = submissions(actions)[1]
    actions += queue.submissionAccepted(probe, messageID: 6, now: .milliseconds(101))
    actions += queue.handle(.ended(6), now: .milliseconds(120))
    // Quiet; and still quiet once the settle window has passed.
    actions += queue.tick(now: .milliseconds(190))
    let (_, settled) = submissions(actions)[2]
    actions += queue.submissionAccepted(settled, messageID: 16, now: .milliseconds(190))
    actions += queue.handle(.ended(16), now: .milliseconds(191))
    let (_, retry) = submissions(actions)[3]
    actions += queue.submissionAccepted(retry, messageID: 7, now: .milliseconds(191))
    actions += queue.handle(.began(7), now: .milliseconds(195))
    actions += queue.handle(.indexMark(7, name: SpeechRequest.finalMarkName), now: .milliseconds(600))
    actions += queue.handle(.ended(7), now: .milliseconds(900))
    #expect(
      eventKinds(actions) == [
        "1:queued", "1:attempt", "1:begin", "1:interrupted", "1:waiting-for-quiet", "1:attempt",
        "1:begin", "1:mark", "1:spoken",
      ])
    let attempts = actions.compactMap { action -> Int? in
      if case .report(let event) = action { return event.attempt }
      return nil
    }
    #expect(attempts == [0, 1, 1, 1, 1, 2, 2, 2, 2])
    #expect(deliveries(actions).map(\.1) == [.spoken(attempts: 2, duration: .milliseconds(900))])
  }

  @Test func aStaleEndFromThePreviousAnnouncementDoesNotCompleteTheNext() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    var actions = queue.enqueue(Announcement("one"), id: AnnouncementID(1), now: .zero)
    actions += queue.enqueue(Announcement("two"), id: AnnouncementID(2), now: .zero)
    let (_, first) = submissions(actions)[0]
    _ = queue.submissionAccepted(first, messageID: 5, now: .zero)
    let next = queue.handle(.ended(5), now: .seconds(1))
    let (_, second) = submissions(next)[0]
    // A duplicate END for message 5 arrives before "two" has its id.
    #expect(deliveries(queue.handle(.ended(5), now: .seconds(1))).isEmpty)
    let accepted = queue.submissionAccepted(second, messageID: 6, now: .seconds(1))
    #expect(deliveries(accepted).isEmpty)
    #expect(!queue.isIdle)
  }

  @Test func cancelAllGivesUpTheCurrentAndEveryWaitingAnnouncement() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    var actions: [Action] = []
    for index in 1...3 {
      actions += queue.enqueue(Announcement("\(index)"), id: AnnouncementID(index), now: .zero)
    }
    let cancel = queue.cancelAll(now: .seconds(1))
    #expect(cancel.contains(.cancelSpeech))
    #expect(deliveries(cancel).map(\.0.rawValue) == [1, 2, 3])
    #expect(deliveries(cancel).allSatisfy { $0.1 == .gaveUp(.cancelled) })
    #expect(submissions(cancel).isEmpty)
    #expect(queue.isIdle)
  }

  /// Queues `count` lines with retry window `timeout`; returns the first one's attempt.
  func enqueueLines(
    _ count: Int, timeout: Duration, into queue: inout TurnGrantingQueue
  ) -> SubmissionID {
    var actions: [Action] = []
    for index in 1...count {
      actions += queue.enqueue(
        Announcement("line \(index)", retryTimeout: timeout), id: AnnouncementID(index), now: .zero)
    }
    return submissions(actions)[0].1
  }

  /// A daemon killed for good: the first announcement waits out its window (0–2 s) for
  /// it, and the five behind it go at once with it, instead of one window each (12 s).
  @Test func aDaemonThatStaysAwayGivesUpEveryWaitingAnnouncementWhenTheWindowCloses() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    let first = enqueueLines(6, timeout: .seconds(2), into: &queue)
    _ = queue.submissionAccepted(first, messageID: 5, now: .zero)
    _ = queue.handle(.began(5), now: .zero)
    #expect(deliveries(queue.handle(.connectionLost, now: .seconds(1))).isEmpty)
    #expect(queue.deadline == .seconds(2))
    let closed = queue.tick(now: .seconds(2))
    #expect(submissions(closed).isEmpty)
    #expect(deliveries(closed).map(\.0.rawValue) == [1, 2, 3, 4, 5, 6])
    #expect(deliveries(closed).allSatisfy { $0.1 == .gaveUp(.disconnected) })
    let gaveUp = closed.compactMap { action -> AnnouncerEvent? in
      if case .report(let event) = action, event.kind == .gaveUp(.disconnected) { return event }
      return nil
    }
    #expect(gaveUp.map(\.announcement.rawValue) == [1, 2, 3, 4, 5, 6])
    #expect(gaveUp.map(\.givenUpAlong) == [5, 0, 0, 0, 0, 0])
    #expect(gaveUp.map(\.givenUpWith) == [nil] + Array(repeating: AnnouncementID(1), count: 5))
    #expect(queue.isIdle)
  }

  /// A daemon that comes back within the window: the interrupted announcement is retried
  /// and every one behind it is spoken, as before.
  @Test func aDaemonThatComesBackWithinTheWindowStillGetsEveryAnnouncementSpoken() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    let first = enqueueLines(3, timeout: .seconds(2), into: &queue)
    _ = queue.submissionAccepted(first, messageID: 5, now: .zero)
    _ = queue.handle(.connectionLost, now: .seconds(1))
    var now = Duration.milliseconds(1500)
    let restored = queue.handle(.connectionRestored, now: now)
    var messageID = 10
    var spoken: [Int] = []
    var pending = submissions(restored)
    // Every probe finds the channel quiet, and every attempt is heard.
    while let (_, submission) = pending.first {
      messageID += 1
      now += .milliseconds(10)
      var step = queue.submissionAccepted(submission, messageID: messageID, now: now)
      step += queue.handle(.ended(messageID), now: now)
      if submissions(step).isEmpty, let settled = queue.deadline, settled < now + .seconds(1) {
        now = settled
        step += queue.tick(now: now)
      }
      spoken += deliveries(step).filter { $0.1.wasSpoken }.map(\.0.rawValue)
      #expect(deliveries(step).allSatisfy { $0.1.wasSpoken })
      pending = submissions(step)
    }
    #expect(spoken == [1, 2, 3])
    #expect(queue.isIdle)
  }

  /// With no window at all, a lost connection is a verdict at once, for all of them.
  @Test func aLostConnectionWithATimeoutOfZeroGivesUpEveryWaitingAnnouncementAtOnce() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    let first = enqueueLines(3, timeout: .zero, into: &queue)
    let lost = queue.submissionFailed(first, now: .zero)
    #expect(deliveries(lost).map(\.0.rawValue) == [1, 2, 3])
    #expect(deliveries(lost).allSatisfy { $0.1 == .gaveUp(.disconnected) })
    #expect(queue.isIdle)
  }

  @Test func timerTicksGoToTheAnnouncementInFlight() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    let actions = queue.enqueue(
      Announcement("later", delay: .seconds(2)), id: AnnouncementID(1), now: .zero)
    #expect(submissions(actions).isEmpty)
    #expect(queue.deadline == .seconds(2))
    #expect(submissions(queue.tick(now: .seconds(2))).map(\.0.text) == ["later"])
  }
}

/// Broken audio: one stall is enough to know.
@Suite struct BrokenAudioQueueTests {
  typealias Action = AnnouncementQueue.Action
  let timing = AnnouncerTiming()

  func submissions(_ actions: [Action]) -> [SubmissionID] {
    actions.compactMap {
      if case .submit(_, let submission) = $0 { return submission }
      return nil
    }
  }

  func gaveUp(_ actions: [Action]) -> [AnnouncerEvent] {
    actions.compactMap {
      if case .report(let event) = $0, case .gaveUp = event.kind { return event }
      return nil
    }
  }

  /// Lets the attempt in flight begin at `now` and stall: its progress check gets no answer.
  func stall(
    _ queue: inout TurnGrantingQueue, _ attempt: SubmissionID, id: MessageID, now: Duration
  )
    -> [Action]
  {
    _ = queue.submissionAccepted(attempt, messageID: id, now: now)
    _ = queue.handle(.began(id), now: now)
    let checkAt = now + timing.progressCheckInterval
    let probe = submissions(queue.tick(now: checkAt))
    #expect(probe.count == 1)
    // speech-dispatcher takes the probe and never answers it: broken audio.
    if let probe = probe.first { _ = queue.submissionAccepted(probe, messageID: id + 1, now: checkAt) }
    return queue.tick(now: checkAt + timing.probeAnswerBound)
  }

  @Test func oneStallGivesUpEveryWaitingAnnouncementAtOnce() {
    var queue = TurnGrantingQueue(timing: timing)
    var actions: [Action] = []
    for (index, text) in ["One", "Two", "Three"].enumerated() {
      actions += queue.enqueue(Announcement(text), id: AnnouncementID(index + 1), now: .zero)
    }
    let finished = stall(&queue, submissions(actions)[0], id: 7, now: .zero)
    let events = gaveUp(finished)
    #expect(events.map(\.kind) == Array(repeating: .gaveUp(.stalled), count: 3))
    #expect(events.map(\.announcement.rawValue) == [1, 2, 3])
    // The first carries how many went with it; the others name the one they went with.
    #expect(events.map(\.givenUpAlong) == [2, 0, 0])
    #expect(events.map(\.givenUpWith) == [nil, AnnouncementID(1), AnnouncementID(1)])
    #expect(events.map(\.attempt) == [1, 0, 0])
    #expect(submissions(finished).isEmpty)
    #expect(queue.isIdle)
  }

  /// speech-dispatcher never takes the first message (it is stopped): the ones waiting
  /// would each wait out a window of their own behind it, so they go at once with it.
  @Test func aDaemonThatIsNotAnsweringGivesUpEveryWaitingAnnouncementAtOnce() {
    var queue = TurnGrantingQueue(timing: timing)
    for (index, text) in ["One", "Two", "Three"].enumerated() {
      _ = queue.enqueue(
        Announcement(text, retryTimeout: .seconds(5)), id: AnnouncementID(index + 1), now: .zero)
    }
    #expect(gaveUp(queue.tick(now: .seconds(4))).isEmpty)
    let finished = queue.tick(now: .seconds(5))
    let events = gaveUp(finished)
    #expect(events.map(\.kind) == Array(repeating: .gaveUp(.notAnswering), count: 3))
    #expect(events.map(\.givenUpAlong) == [2, 0, 0])
    #expect(submissions(finished).isEmpty)
    #expect(queue.isIdle)
  }

  @Test func aLaterAnnouncementChecksWhetherAudioCameBackAndSpeaksNormally() {
    var queue = TurnGrantingQueue(timing: timing)
    let first = submissions(queue.enqueue(Announcement("One"), id: AnnouncementID(1), now: .zero))
    _ = stall(&queue, first[0], id: 7, now: .zero)
    // Audio comes back (PulseAudio restarted); a later line is tried as usual.
    let later = Duration.seconds(60)
    let attempt = submissions(queue.enqueue(Announcement("Two"), id: AnnouncementID(2), now: later))
    #expect(attempt.count == 1)
    _ = queue.submissionAccepted(attempt[0], messageID: 8, now: later)
    _ = queue.handle(.began(8), now: later)
    let spoken = queue.handle(.ended(8), now: later + .milliseconds(600))
    #expect(
      spoken.contains { if case .deliver(AnnouncementID(2), .spoken) = $0 { true } else { false } })
  }
}
