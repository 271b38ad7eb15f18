import AnnouncerTesting
import Dispatch
import Synchronization
import Testing

@testable import AnnouncerCore

/// ``Race``, the one helper for "the first to end wins" and "end by a deadline", with a
/// manual clock: no sleeps.
@Suite(.timeLimit(.minutes(1))) struct RaceTests {
  /// A wait that only the test ends, and that records whether the race cancelled it.
  final class Gate: Sendable {
    private let state = Mutex<(opened: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    private let cancelled = Mutex(false)
    var wasCancelled: Bool { cancelled.withLock { $0 } }

    /// Returns once ``open()`` is called; a cancel is recorded, not obeyed, as a call
    /// blocked in libspeechd would.
    func wait() async {
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let now = state.withLock { state -> Bool in
            if state.opened { return true }
            state.waiter = continuation
            return false
          }
          if now { continuation.resume() }
        }
      } onCancel: {
        cancelled.withLock { $0 = true }
      }
    }

    func open() {
      let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
        state.opened = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume()
    }
  }

  @Test func theFirstToReturnWinsAndTheLoserIsCancelledNotWaitedFor() async {
    let stuck = Gate()
    let winner = await Race.first(
      { () async -> String? in
        await stuck.wait()
        return "stuck"
      },
      { "quick" })
    #expect(winner == "quick")
    // The race returned while the loser still waits: it was cancelled, never awaited.
    #expect(stuck.wasCancelled)
    stuck.open()
  }

  @Test func aRacerThatStandsAsideLeavesTheRaceToTheOthers() async {
    let later = Gate()
    let opener = Task {
      // Opened only after the first racer has stood aside.
      later.open()
    }
    let winner = await Race.first(
      { () async -> Int? in nil },
      { () async -> Int? in
        await later.wait()
        return 2
      })
    await opener.value
    #expect(winner == 2)
    let none = await Race.first({ () async -> Int? in nil }, { nil })
    #expect(none == nil)
  }

  @Test func workThatEndsBeforeTheDeadlineGivesItsValueAndTheTimerStops() async {
    let clock = ManualClock()
    let value = await Race.within(.seconds(2), timer: DeadlineTimer(clock)) { 7 }
    #expect(value == 7)
    #expect(clock.sleeperCount == 0)
  }

  @Test func theDeadlinePassingEndsTheRaceWithoutTheWork() async {
    let clock = ManualClock()
    let stuck = Gate()
    let advancer = Task {
      await clock.waitForSleeper(until: .seconds(2))
      clock.advance(by: .milliseconds(1999))
      // Not yet: a bound is not cut short.
      #expect(clock.sleeperCount == 1)
      clock.advance(by: .milliseconds(1))
    }
    let value = await Race.within(.seconds(2), timer: DeadlineTimer(clock)) { () async -> Int in
      await stuck.wait()
      return 1
    }
    await advancer.value
    #expect(value == nil)
    #expect(stuck.wasCancelled)
    stuck.open()
  }

  @Test func cancellingTheCallerCancelsEveryRacer() async {
    let clock = ManualClock()
    let stuck = Gate()
    let racing = Task { await Race.within(.seconds(30), timer: DeadlineTimer(clock)) { await stuck.wait() } }
    await clock.waitForSleeper(until: .seconds(30))
    racing.cancel()
    // Both racers are told at once: the timer stops sleeping and stands aside, and the
    // work, stuck as a blocked call is, goes on until it returns.
    #expect(clock.sleeperCount == 0)
    stuck.open()
    #expect(await racing.value != nil)
    #expect(stuck.wasCancelled)
  }

  @Test func blockingWorkRunsOffTheCooperativeThreadsWithinItsBound() async {
    let value = await Race.within(.seconds(30), on: DispatchQueue(label: "race-test")) { 42 }
    #expect(value == 42)
  }
}
