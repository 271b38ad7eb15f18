import Dispatch
import Synchronization

/// The one helper for "the first to end wins" and "end by a deadline", after
/// swift-service-lifecycle's `ServiceGroup`, which ends at the first of its services and
/// the signals: the run driver, doctor, replay and the core all race through it.
///
/// The losers are cancelled and never waited for: work that may never finish (a call into
/// a wedged speech-dispatcher, in which libspeechd blocks in `spd_open2` or `spd_say` for
/// ever, or a connect to a listener whose backlog is full) is left behind, and the caller
/// moves on. A task group would wait for every child at its end, and so for the stuck one.
package enum Race {
  /// The first value one of `racers` returns; `nil` when every one of them returned `nil`.
  /// A racer returns `nil` to stand aside, such as a wait cancelled because another won.
  /// Once one has won, the others are cancelled and not waited for; cancelling the caller
  /// cancels every racer.
  package static func first<T: Sendable>(_ racers: (@Sendable () async -> T?)...) async -> T? {
    guard !racers.isEmpty else { return nil }
    let finish = FirstFinish<T>(racers: racers.count)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        finish.start(continuation)
        let tasks = racers.map { racer in Task { finish.offer(await racer()) } }
        finish.keep(tasks)
      }
    } onCancel: {
      finish.cancelAll()
    }
  }

  /// `work`'s value, or `nil` when it has not returned by the time `bound` has passed on
  /// `timer`; `work` is then cancelled and left running.
  package static func within<T: Sendable>(
    _ bound: Duration, timer: DeadlineTimer = .dispatch, _ work: @escaping @Sendable () async -> T
  ) async -> T? {
    let ended = await first(
      { Ending<T>.finished(await work()) },
      { await timer.wait(bound) ? Ending<T>.outOfTime : nil })
    if case .finished(let value) = ended { return value }
    return nil
  }

  /// As ``within(_:timer:_:)``, for work that blocks its thread: it runs on `queue`, never
  /// on one of Swift's few cooperative threads, which it would hold for as long as it blocks.
  package static func within<T: Sendable>(
    _ bound: Duration, on queue: DispatchQueue, timer: DeadlineTimer = .dispatch,
    _ work: @escaping @Sendable () -> T
  ) async -> T? {
    await within(bound, timer: timer) {
      await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: work()) } }
    }
  }

  /// How a race against a deadline ended.
  private enum Ending<T: Sendable>: Sendable {
    case finished(T)
    case outOfTime
  }
}

/// When a deadline has passed: a Dispatch timer in the command, a ``ManualClock`` in a test.
package struct DeadlineTimer: Sendable {
  private let sleep: @Sendable (Duration) async -> Bool

  /// A timer that waits on `clock`.
  package init<C: Clock>(_ clock: C) where C.Duration == Duration {
    sleep = { bound in
      (try? await clock.sleep(until: clock.now.advanced(by: bound), tolerance: nil)) != nil
    }
  }

  private init(sleep: @escaping @Sendable (Duration) async -> Bool) { self.sleep = sleep }

  /// Returns `true` once `bound` has passed, or `false` at once when the waiting task is
  /// cancelled.
  package func wait(_ bound: Duration) async -> Bool { await sleep(bound) }

  /// A Dispatch timer on a queue of its own. Not a global queue: those run on as many
  /// threads as there are cores, and work blocked on them (a test process full of it
  /// measured 28 s of delay on 2 cores) would hold a bound back long after it had passed.
  package static let dispatch = DeadlineTimer { bound in
    let alarm = Alarm()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        alarm.set(continuation)
        let (seconds, attoseconds) = bound.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        timers.asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) { alarm.ring(true) }
      }
    } onCancel: {
      alarm.ring(false)
    }
  }

  private static let timers = DispatchQueue(label: "announce.deadline")

  /// A continuation that the timer or a cancel resumes, whichever comes first.
  private final class Alarm: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Bool, Never>?, rung: Bool?)>((nil, nil))

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
      let rung = state.withLock { state -> Bool? in
        if state.rung == nil { state.continuation = continuation }
        return state.rung
      }
      if let rung { continuation.resume(returning: rung) }
    }

    func ring(_ passed: Bool) {
      let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard state.rung == nil else { return nil }
        state.rung = passed
        defer { state.continuation = nil }
        return state.continuation
      }
      waiting?.resume(returning: passed)
    }
  }
}

/// The state of one ``Race/first(_:)``: who is still running, and the continuation that
/// the first value resumes.
private final class FirstFinish<T: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<T?, Never>?
    var running: Int
    var decided = false
    var cancelled = false
    var tasks: [Task<Void, Never>] = []
  }
  private let state: Mutex<State>

  init(racers: Int) { state = Mutex(State(running: racers)) }

  func start(_ continuation: CheckedContinuation<T?, Never>) {
    state.withLock { $0.continuation = continuation }
  }

  /// Keeps the racers' tasks, to cancel the losers; cancels them at once when the race
  /// was decided, or cancelled, before they were kept.
  func keep(_ tasks: [Task<Void, Never>]) {
    let cancelNow = state.withLock { state -> Bool in
      state.tasks = tasks
      return state.decided || state.cancelled
    }
    if cancelNow { for task in tasks { task.cancel() } }
  }

  /// A racer's value: the first that is not `nil` wins; `nil` from the last one running
  /// ends the race with none.
  func offer(_ value: T?) {
    let (continuation, losers) = state.withLock {
      state -> (CheckedContinuation<T?, Never>?, [Task<Void, Never>]) in
      state.running -= 1
      guard !state.decided, value != nil || state.running == 0 else { return (nil, []) }
      state.decided = true
      defer { state.continuation = nil }
      return (state.continuation, state.tasks)
    }
    for loser in losers { loser.cancel() }
    continuation?.resume(returning: value)
  }

  /// The caller was cancelled: every racer is.
  func cancelAll() {
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      state.cancelled = true
      return state.tasks
    }
    for task in tasks { task.cancel() }
  }
}
