import Dispatch
import Synchronization

/// The one bound of a whole `announce doctor` run: every step is given what is left of
/// it, at most its own bound, so that doctor ends within ``whole`` however many steps
/// meet a daemon, a sound server or a brltty that does not answer.
///
/// The steps' own bounds add up to more (2 s for the daemon, 6 s for the test sentence,
/// 1.5 s for each sound tool, 2 s for tmux and for brltty), and a connect to a listener
/// whose backlog is full can block in the kernel; so a step that outlives its share is
/// left behind, not waited for, and the process ends without it.
struct DoctorDeadline: Sendable {
  /// The whole run, from the first check to the last line: under the 8 s that a person
  /// waits, with room for the process to start and end.
  static let whole: Duration = .milliseconds(7500)

  /// When the run must have ended.
  let end: ContinuousClock.Instant

  init(from start: ContinuousClock.Instant = .now, lasting whole: Duration = DoctorDeadline.whole) {
    end = start + whole
  }

  /// What is left, never less than zero.
  var left: Duration { max(.zero, ContinuousClock.now.duration(to: end)) }

  /// `bound`, or what is left when that is less, keeping `reserve` for the steps after.
  func share(_ bound: Duration, keeping reserve: Duration = .zero) -> Duration {
    min(bound, max(.zero, left - reserve))
  }

  /// Whether nothing is left for another step.
  var isOver: Bool { left <= .milliseconds(50) }

  /// The result of `operation`, or `nil` when it has not ended within `bound`: it is then
  /// left running, since a step blocked in a system call cannot be cancelled, and the
  /// process ends without it. The bound is kept by a Dispatch timer, which needs none of
  /// Swift's few pool threads, one of which such a step may hold.
  static func run<T: Sendable>(
    within bound: Duration, _ operation: @escaping @Sendable () async -> T
  ) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
      let once = Once(continuation)
      let work = Task { once.settle(await operation()) }
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Self.nanoseconds(bound))) {
        once.settle(nil)
        work.cancel()
      }
    }
  }

  /// As ``run(within:_:)``, for a step that blocks its thread, such as a connect to a
  /// socket whose listener does not accept: it runs on a Dispatch thread of its own.
  static func runBlocking<T: Sendable>(
    within bound: Duration, _ operation: @escaping @Sendable () -> T
  ) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
      let once = Once(continuation)
      DispatchQueue.global().async { once.settle(operation()) }
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Self.nanoseconds(bound))) {
        once.settle(nil)
      }
    }
  }

  /// `duration` in whole nanoseconds, for Dispatch.
  private static func nanoseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(clamping: seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  }

  /// Resumes a continuation with the first value it is given, and ignores the others.
  private final class Once<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T?, Never>?>

    init(_ continuation: CheckedContinuation<T?, Never>) {
      self.continuation = Mutex(continuation)
    }

    func settle(_ value: T?) {
      let waiting = continuation.withLock { waiting in
        defer { waiting = nil }
        return waiting
      }
      waiting?.resume(returning: value)
    }
  }
}
