import Testing

@testable import AnnouncerCore

/// Flood control in the queue: merging identical waiting lines, dropping the
/// oldest waiting ones beyond the bound, and the spoken summary.
@Suite struct FloodControlTests {
  typealias Action = AnnouncementQueue.Action

  func submissions(_ actions: [Action]) -> [(SpeechRequest, SubmissionID)] {
    actions.compactMap {
      if case .submit(let request, let submission) = $0 { return (request, submission) }
      return nil
    }
  }

  func deliveries(_ actions: [Action]) -> [(Int, Outcome)] {
    actions.compactMap {
      if case .deliver(let id, let outcome) = $0 { return (id.rawValue, outcome) }
      return nil
    }
  }

  func events(_ actions: [Action]) -> [AnnouncerEvent] {
    actions.compactMap {
      if case .report(let event) = $0 { return event }
      return nil
    }
  }

  /// Hears the message sent as `submission` to the end, as message `messageID`.
  func hear(
    _ submission: SubmissionID, as messageID: MessageID, in queue: inout TurnGrantingQueue,
    now: Duration
  ) -> [Action] {
    var actions = queue.submissionAccepted(submission, messageID: messageID, now: now)
    actions += queue.handle(.began(messageID), now: now)
    actions += queue.handle(.ended(messageID), now: now)
    return actions
  }

  @Test func aLineEqualToAWaitingOneIsMergedAndSharesItsOutcome() throws {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming(), maxWaiting: 50)
    var actions = queue.enqueue(Announcement("Build started"), id: AnnouncementID(1), now: .zero)
    actions += queue.enqueue(Announcement("error: x"), id: AnnouncementID(2), now: .zero)
    let merged = queue.enqueue(Announcement("error: x"), id: AnnouncementID(3), now: .zero)
    let mergedEvents = events(merged)
    #expect(mergedEvents.map(\.kind) == [.merged(into: AnnouncementID(2))])
    #expect(mergedEvents.first?.announcement == AnnouncementID(3))
    #expect(queue.waitingCount == 1)

    let (_, first) = try #require(submissions(actions).first)
    let next = hear(first, as: 10, in: &queue, now: .seconds(1))
    let (request, second) = try #require(submissions(next).first)
    #expect(request.text == "error: x")
    let done = hear(second, as: 11, in: &queue, now: .seconds(2))
    #expect(deliveries(done).map(\.0) == [2, 3])
    #expect(deliveries(done).allSatisfy { $0.1.wasSpoken })
    #expect(queue.isIdle)
  }

  @Test func theLineInFlightIsNotAMergeTarget() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming(), maxWaiting: 50)
    _ = queue.enqueue(Announcement("same"), id: AnnouncementID(1), now: .zero)
    let second = queue.enqueue(Announcement("same"), id: AnnouncementID(2), now: .zero)
    #expect(events(second).map(\.kind) == [.queued])
    #expect(queue.waitingCount == 1)
  }

  @Test func linesThatDifferInVoiceAreNotMerged() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming(), maxWaiting: 50)
    _ = queue.enqueue(Announcement("first"), id: AnnouncementID(1), now: .zero)
    _ = queue.enqueue(Announcement("same"), id: AnnouncementID(2), now: .zero)
    let louder = queue.enqueue(
      Announcement("same", voice: VoiceOptions(volume: 100)), id: AnnouncementID(3), now: .zero)
    #expect(events(louder).map(\.kind) == [.queued])
    #expect(queue.waitingCount == 2)
  }

  @Test func withoutABoundNothingIsMergedOrDropped() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming())
    for index in 1...200 {
      _ = queue.enqueue(Announcement("same"), id: AnnouncementID(index), now: .zero)
    }
    #expect(queue.waitingCount == 199)
  }

  @Test func beyondTheBoundTheOldestWaitingAreDroppedThenASummaryIsSpokenFirst() throws {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming(), maxWaiting: 3)
    var actions: [Action] = []
    for index in 1...7 {
      actions += queue.enqueue(Announcement("line \(index)"), id: AnnouncementID(index), now: .zero)
    }
    // 1 is in flight; 2, 3, 4, 5, 6, 7 arrived for three places: 2, 3 and 4 were dropped.
    #expect(queue.waitingCount == 3)
    #expect(deliveries(actions).map(\.0) == [2, 3, 4])
    #expect(deliveries(actions).allSatisfy { $0.1 == .gaveUp(.dropped) })
    #expect(
      events(actions).filter { $0.kind == .gaveUp(.dropped) }.map(\.text)
        == ["line 2", "line 3", "line 4"])

    let (_, first) = try #require(submissions(actions).first)
    let afterFirst = hear(first, as: 10, in: &queue, now: .seconds(1))
    let (summary, summarySubmission) = try #require(submissions(afterFirst).first)
    #expect(summary.text == "3 messages skipped")
    #expect(summarySubmission.announcement.rawValue < 0)
    let afterSummary = hear(summarySubmission, as: 11, in: &queue, now: .seconds(2))
    #expect(submissions(afterSummary).map(\.0.text) == ["line 5"])
  }

  @Test func oneDropIsSummedUpInTheSingular() throws {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming(), maxWaiting: 1)
    let first = queue.enqueue(Announcement("a"), id: AnnouncementID(1), now: .zero)
    _ = queue.enqueue(Announcement("b"), id: AnnouncementID(2), now: .zero)
    _ = queue.enqueue(Announcement("c"), id: AnnouncementID(3), now: .zero)
    let (_, submission) = try #require(submissions(first).first)
    let next = hear(submission, as: 10, in: &queue, now: .seconds(1))
    #expect(submissions(next).map(\.0.text) == ["1 message skipped"])
  }

  /// The words come from the program, in the language it gives; the library has no catalogs.
  @Test func theSummaryIsSaidInTheWordingGivenAndItsLanguage() throws {
    let french = SummaryWording(language: "fr") { "\($0) messages ignorés" }
    var queue = TurnGrantingQueue(timing: AnnouncerTiming(), maxWaiting: 1, summaryWording: french)
    let voice = VoiceOptions(language: "de", voiceName: nil)
    let first = queue.enqueue(Announcement("a", voice: voice), id: AnnouncementID(1), now: .zero)
    for index in 2...4 {
      _ = queue.enqueue(Announcement("x\(index)", voice: voice), id: AnnouncementID(index), now: .zero)
    }
    let (_, submission) = try #require(submissions(first).first)
    let (summary, _) = try #require(submissions(hear(submission, as: 10, in: &queue, now: .seconds(1))).first)
    #expect(summary.text == "2 messages ignorés")
    #expect(summary.voice.language == "fr")
    var kept = TurnGrantingQueue(
      timing: AnnouncerTiming(), maxWaiting: 1, summaryWording: SummaryWording { "\($0) übersprungen" })
    let start = kept.enqueue(Announcement("a", voice: voice), id: AnnouncementID(1), now: .zero)
    for index in 2...3 {
      _ = kept.enqueue(Announcement("x\(index)", voice: voice), id: AnnouncementID(index), now: .zero)
    }
    let (_, keptSubmission) = try #require(submissions(start).first)
    let (keptSummary, _) = try #require(
      submissions(hear(keptSubmission, as: 10, in: &kept, now: .seconds(1))).first)
    #expect(keptSummary.text == "1 übersprungen")
    #expect(keptSummary.voice.language == "de")
  }

  @Test func announcementsMergedIntoADroppedOneAreDroppedAndCounted() throws {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming(), maxWaiting: 2)
    var actions = queue.enqueue(Announcement("a"), id: AnnouncementID(1), now: .zero)
    actions += queue.enqueue(Announcement("b"), id: AnnouncementID(2), now: .zero)
    actions += queue.enqueue(Announcement("b"), id: AnnouncementID(3), now: .zero)
    actions += queue.enqueue(Announcement("c"), id: AnnouncementID(4), now: .zero)
    actions += queue.enqueue(Announcement("d"), id: AnnouncementID(5), now: .zero)
    #expect(deliveries(actions).map(\.0) == [2, 3])
    let (_, submission) = try #require(submissions(actions).first)
    let next = hear(submission, as: 10, in: &queue, now: .seconds(1))
    #expect(submissions(next).map(\.0.text) == ["2 messages skipped"])
  }

  @Test func cancellingForgetsTheSkippedCount() {
    var queue = TurnGrantingQueue(timing: AnnouncerTiming(), maxWaiting: 1)
    for index in 1...4 {
      _ = queue.enqueue(Announcement("\(index)"), id: AnnouncementID(index), now: .zero)
    }
    _ = queue.cancelAll(now: .seconds(1))
    let fresh = queue.enqueue(Announcement("fresh"), id: AnnouncementID(5), now: .seconds(2))
    #expect(submissions(fresh).map(\.0.text) == ["fresh"])
  }
}
