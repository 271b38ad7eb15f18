import Dispatch
import Synchronization

/// Runs work that may never finish (a call into a wedged speech-dispatcher) and
/// stops waiting for it after a bound.
///
/// speech-dispatcher 0.11.4 can stop answering entirely; libspeechd then blocks
/// in `spd_open2` or `spd_say` for ever. This lets the caller give up and move on.
enum Deadline {
  /// Where the bounds run out. Not a global queue: those run on as many threads as there
  /// are cores, and work blocked on them (a test process full of it measured 28 s of delay
  /// on 2 cores) would hold a bound back long after it had passed.
  private static let timers = DispatchQueue(label: "announce.deadline")

  /// Returns `work`'s result, or `nil` when it has not finished within `bound`.
  static func run<T: Sendable>(
    within bound: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> T
  ) async -> T? {
    let once = OnceBox<T?>()
    return await withCheckedContinuation { continuation in
      once.set(continuation)
      queue.async { once.resume(with: work()) }
      let nanoseconds =
        bound.components.seconds * 1_000_000_000 + bound.components.attoseconds / 1_000_000_000
      timers.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
        once.resume(with: nil)
      }
    }
  }

  /// Returns `work`'s result, or `timedOut` when it takes longer than `bound`.
  static func result<T: Sendable>(
    of work: @escaping @Sendable () async -> T, within bound: Duration, orElse timedOut: T
  ) async -> T {
    let once = OnceBox<T>()
    return await withCheckedContinuation { continuation in
      once.set(continuation)
      Task { once.resume(with: await work()) }
      Task {
        try? await Task.sleep(for: bound)
        once.resume(with: timedOut)
      }
    }
  }

  /// Waits for `work`, at most `bound`; returns whether it finished.
  static func wait(
    atMost bound: Duration, for work: @escaping @Sendable () async -> Void
  ) async -> Bool {
    await result(
      of: {
        await work()
        return true
      }, within: bound, orElse: false)
  }
}

/// A continuation that is resumed by whichever of several racers comes first.
private final class OnceBox<T: Sendable>: Sendable {
  private let state = Mutex<(continuation: CheckedContinuation<T, Never>?, done: Bool)>((nil, false))

  func set(_ continuation: CheckedContinuation<T, Never>) {
    state.withLock { $0.continuation = continuation }
  }

  func resume(with value: T) {
    let continuation = state.withLock { state -> CheckedContinuation<T, Never>? in
      guard !state.done, let continuation = state.continuation else { return nil }
      state.done = true
      return continuation
    }
    continuation?.resume(returning: value)
  }
}
