import AnnouncerCore
import Testing

@testable import announce

/// ``ExitStatus/of(_:)``, the one place a run's result becomes its status, over every
/// kind of result, every combination of reasons for not delivering, and replay's lists.
@Suite struct ExitStatusTests {
  /// The status each give-up reason alone leads to, as the README's EXIT STATUS says:
  /// 69 when the speech service is unavailable, 1 for any other.
  static func statusAlone(_ reason: GiveUpReason) -> Int32 { reason.meansServiceUnavailable ? 69 : 1 }

  /// The statuses from the worst down: the service's trouble, bad input, not delivered.
  static let precedence: [Int32] = [69, 65, 1, 0]

  @Test func theServicesTroubleIsUnavailableAndAnythingElseNotDelivered() {
    let service: [GiveUpReason] = [.stalled, .notAnswering, .disconnected]
    let others: [GiveUpReason] = [.interruptedOutOfTime, .noRetry, .cancelled, .dropped]
    for reason in service {
      #expect(ExitStatus.of(.finished(RunSummary(failureCounts: [.speech(reason): 1]))) == 69, "\(reason)")
    }
    for reason in others {
      #expect(ExitStatus.of(.finished(RunSummary(failureCounts: [.speech(reason): 1]))) == 1, "\(reason)")
    }
  }

  /// A braille failure is braille's own: the display unavailable is 69 only when braille
  /// is the channel the rule requires; with speech, the display never changes the status.
  @Test func brailleFailuresCountOnlyWhereBrailleIsRequired() {
    let unavailable: [BrailleFailure] = [.unavailable, .notAnswering, .displayLost]
    let others: [BrailleFailure] = [.outOfTime, .speechFailed, .skipped, .cancelled]
    let alone = DeliveryPlan(braille: .only)
    let withSpeech = DeliveryPlan(braille: .on)
    for failure in unavailable + others {
      let outcome = ChannelOutcome.braille(.notShown(failure))
      #expect(withSpeech.failure(of: outcome) == nil, "\(failure)")
      var summary = RunSummary()
      if let counted = alone.failure(of: outcome) { summary.count(counted) }
      #expect(summary.failures == [.braille(failure)])
      #expect(ExitStatus.of(.finished(summary)) == (unavailable.contains(failure) ? 69 : 1), "\(failure)")
    }
    #expect(alone.failure(of: .braille(.shown(duration: .seconds(5)))) == nil)
    #expect(alone.failure(of: .braille(.acknowledged(after: .seconds(1)))) == nil)
    #expect(alone.failure(of: .speech(.gaveUp(.unreachable))) == nil)
  }

  @Test func resultsWithoutAnnouncementsHaveTheirOwnStatus() {
    #expect(ExitStatus.of(.listed) == 0)
    #expect(ExitStatus.of(.detached) == 0)
    #expect(ExitStatus.of(.finished(RunSummary())) == 0)
    #expect(HandledSignal.allCases.map { ExitStatus.of(.interrupted($0)) } == [129, 130, 131, 143])
    #expect(ExitStatus.of(.failed(.usage("x"))) == 64)
    #expect(ExitStatus.of(.failed(.badInput("x"))) == 65)
    #expect(ExitStatus.of(.failed(.serviceUnavailable("x"))) == 69)
    #expect(ExitStatus.of(.failed(.notDelivered("x"))) == 1)
  }

  /// Every subset of the reasons, with and without rejected lines: the worst status wins.
  @Test(arguments: 0..<(1 << GiveUpReason.allCases.count), [0, 3])
  func aFinishedRunHasTheWorstStatusOfWhatWentWrong(subset: Int, rejectedLines: Int) {
    let reasons = GiveUpReason.allCases.enumerated().filter { subset & (1 << $0.offset) != 0 }.map(\.element)
    let summary = RunSummary(
      failureCounts: Dictionary(uniqueKeysWithValues: reasons.map { (ChannelFailure.speech($0), 2) }),
      rejectedLines: rejectedLines)
    let statuses = reasons.map(Self.statusAlone) + (rejectedLines > 0 ? [65] : [])
    let worst = Self.precedence.first(where: statuses.contains) ?? 0
    #expect(ExitStatus.of(.finished(summary)) == worst, "\(reasons), \(rejectedLines) rejected")
  }

  static let replayed: [RunResult] = [
    .finished(RunSummary()), .listed, .finished(RunSummary(failureCounts: [.speech(.cancelled): 1])),
    .finished(RunSummary(rejectedLines: 1)), .failed(.usage("x")), .failed(.badInput("x")),
    .failed(.notDelivered("x")), .failed(.serviceUnavailable("x")),
    .finished(RunSummary(failureCounts: [.speech(.stalled): 1])),
  ]

  /// A replay's status, of every pair of its announcements' results: speech-dispatcher's
  /// trouble first, then usage errors, bad input, and not delivered.
  @Test(arguments: replayed, replayed)
  func aReplayHasTheWorstStatusOfItsRuns(first: RunResult, second: RunResult) {
    let statuses = [ExitStatus.of(first), ExitStatus.of(second)]
    let worst = [69, 64, 65, 1].first(where: statuses.contains) ?? 0
    #expect(ExitStatus.of([first, second]) == worst)
  }

  @Test func aSignalEndsAReplayWithItsStatusWhateverCameBefore() {
    for signal in HandledSignal.allCases {
      let results: [RunResult] = [.failed(.serviceUnavailable("x")), .interrupted(signal)]
      #expect(ExitStatus.of(results) == ExitStatus.of(.interrupted(signal)))
    }
    #expect(ExitStatus.of([]) == 0)
  }
}
