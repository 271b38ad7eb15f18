import Synchronization

/// A clock that moves only when a test says so, after swift-async-algorithms' ManualClock.
public final class ManualClock: Clock, Sendable {
  public struct Instant: InstantProtocol {
    public var offset: Duration
    public init(offset: Duration) { self.offset = offset }
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Int: Sleeper] = [:]
    var lastKey = 0
    /// Tests waiting until somebody sleeps until a given instant.
    var sleeperWaiters: [(deadline: Duration, continuation: CheckedContinuation<Void, Never>)] = []

    func hasSleeper(until deadline: Duration) -> Bool {
      sleepers.values.contains { $0.deadline.offset == deadline }
    }

    /// Takes the waiters whose sleeper has come.
    mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      let waiters = sleeperWaiters
      sleeperWaiters = waiters.filter { !hasSleeper(until: $0.deadline) }
      return waiters.filter { hasSleeper(until: $0.deadline) }.map(\.continuation)
    }
  }

  private let state = Mutex(State())

  /// A clock at its start, which only ``advance(by:)`` moves.
  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// How many sleepers are waiting.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Returns once somebody sleeps until `deadline` (a duration since the clock started):
  /// once a driver has armed its timer for then. A driver that never does makes the
  /// test run into its time limit.
  public func waitForSleeper(until deadline: Duration) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.hasSleeper(until: deadline) { return true }
        state.sleeperWaiters.append((deadline, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let key = state.withLock {
      $0.lastKey += 1
      return $0.lastKey
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let (resumeNow, satisfied) = state.withLock {
          state -> ((any Error)??, [CheckedContinuation<Void, Never>]) in
          if state.now >= deadline { return (.some(nil), []) }
          // Cancelled before it slept: the cancel handler ran already and found no sleeper
          // to wake, so one kept now would sleep for ever.
          if Task.isCancelled { return (.some(CancellationError()), []) }
          state.sleepers[key] = Sleeper(deadline: deadline, continuation: continuation)
          return (nil, state.takeSatisfiedWaiters())
        }
        switch resumeNow {
        case .some(.some(let error)): continuation.resume(throwing: error)
        case .some(.none): continuation.resume()
        case .none: break
        }
        for waiter in satisfied { waiter.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: key) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward and wakes every sleeper whose deadline has come.
  public func advance(by duration: Duration) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.value.deadline <= now }
      for key in due.keys { state.sleepers[key] = nil }
      return Array(due.values)
    }
    for sleeper in due { sleeper.continuation.resume() }
  }
}
