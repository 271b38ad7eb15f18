import Glibc
import Synchronization

/// What SIGTSTP does to a run: `whenStopping` gives back what it holds, the process
/// stops, and `whenContinued` takes it again. Without it, a flash held the display over
/// the screen reader's own text until its time ran out. ``ProcessSignals`` keeps one for
/// the process; a test calls ``received()`` in place of the signal, with a `stop` that
/// stops nothing.
final class Suspension: Sendable {
  private let whenStopping: @Sendable () async -> Void
  private let whenContinued: @Sendable () async -> Void
  private let stop: @Sendable () async -> Void

  init(
    whenStopping: @escaping @Sendable () async -> Void, whenContinued: @escaping @Sendable () async -> Void,
    stop: @escaping @Sendable () async -> Void
  ) {
    self.whenStopping = whenStopping
    self.whenContinued = whenContinued
    self.stop = stop
  }

  /// Where the suspension is. A SIGTSTP that comes while one is on its way to the stop is
  /// part of that stop, as a second Control-Z is to a process without a handler; one that
  /// comes once the process continued, while the run takes back what it gave, is a new one.
  private enum Phase {
    case idle
    case stopping
    case continuing(again: Bool)
  }
  private let phase = Mutex(Phase.idle)

  /// SIGTSTP arrived: gives back what the run holds, stops, and takes it again.
  ///
  /// One suspension at a time: each signal once started its own, and two close together
  /// (1 run in 6 of two `kill -TSTP`) left SIGTSTP at its default action, because the
  /// second saved the action the first had put in place for its stop and restored it
  /// last. From then on Control-Z stopped the process with the display held.
  ///
  /// - Returns: whether this signal started a suspension of its own.
  @discardableResult
  func received() -> Bool {
    let starts = phase.withLock { phase in
      switch phase {
      case .idle:
        phase = .stopping
        return true
      case .stopping:
        return false
      case .continuing:
        phase = .continuing(again: true)
        return false
      }
    }
    if starts { Task { await suspend() } }
    return starts
  }

  /// Suspends the run, and again for each SIGTSTP that came while it was taken back.
  private func suspend() async {
    while true {
      await whenStopping()
      await stop()
      phase.withLock { $0 = .continuing(again: false) }
      await whenContinued()
      let again = phase.withLock { phase in
        if case .continuing(again: true) = phase {
          phase = .stopping
          return true
        }
        phase = .idle
        return false
      }
      guard again else { return }
    }
  }

  /// Stops the process as SIGTSTP would have, and returns once it continues: the default
  /// action is put back for the one signal raised here, then the handler before it.
  ///
  /// The signal goes to this very thread, with SIGTSTP unblocked on it for the moment, so
  /// the kernel delivers it as `pthread_kill` returns and the process stops right there.
  /// Sent to the process instead (`kill`), it went to another thread, which on a loaded
  /// machine ran only after the handler below was back, and the signal was then ignored:
  /// the real-stack Control-Z test saw the display given back and the process never stop,
  /// in 3 runs of 4 at load 14 to 19.
  static func stopUntilContinued() {
    var tstp = sigset_t()
    sigemptyset(&tstp)
    sigaddset(&tstp, SIGTSTP)
    var mask = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &tstp, &mask)
    var stop = sigaction()
    stop.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&stop.sa_mask)
    var saved = sigaction()
    sigaction(SIGTSTP, &stop, &saved)
    pthread_kill(pthread_self(), SIGTSTP)
    sigaction(SIGTSTP, &saved, nil)
    pthread_sigmask(SIG_SETMASK, &mask, nil)
  }
}
