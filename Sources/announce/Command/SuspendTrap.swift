import Dispatch
import Glibc
import Synchronization

/// Handles Control-Z (SIGTSTP) while a run delivers, through a ``Suspension``: what the
/// run holds, such as the braille display, is given back, then the process stops as it
/// would have; once it continues (SIGCONT), it is taken again. Without it, the flash held
/// the display over the screen reader's own text until its time ran out.
final class SuspendTrap: Sendable {
  private let source: Mutex<(any DispatchSourceSignal)?>

  /// Whether a trap was armed before: libdispatch installs its own handler for SIGTSTP
  /// when the first source is registered, once per process (see ``SignalTrap``).
  private static let armedBefore = Atomic<Bool>(false)

  /// A trap that hands SIGTSTP to `suspension` from the moment it returns.
  static func armed(_ suspension: Suspension) async -> SuspendTrap {
    let registered = DispatchGroup()
    let trap = SuspendTrap(registered: registered, suspension: suspension)
    await withCheckedContinuation { continuation in
      registered.notify(queue: .global()) { continuation.resume() }
    }
    return trap
  }

  private init(registered: DispatchGroup, suspension: Suspension) {
    if !Self.armedBefore.exchange(true, ordering: .sequentiallyConsistent) { signal(SIGTSTP, SIG_IGN) }
    let source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
    registered.enter()
    source.setRegistrationHandler { registered.leave() }
    source.setEventHandler { suspension.received() }
    source.resume()
    self.source = Mutex(source)
  }

  /// Stops handling SIGTSTP; it stays ignored while the process sums up.
  func disarm() {
    source.withLock { $0?.cancel() }
  }
}

/// What SIGTSTP does to a run: `whenStopping` gives back what it holds, the process
/// stops, and `whenContinued` takes it again. A test calls ``received()`` in place of
/// the signal, with a `stop` that stops nothing.
final class Suspension: Sendable {
  private let whenStopping: @Sendable () async -> Void
  private let whenContinued: @Sendable () async -> Void
  private let stop: @Sendable () -> Void

  init(
    whenStopping: @escaping @Sendable () async -> Void, whenContinued: @escaping @Sendable () async -> Void,
    stop: @escaping @Sendable () -> Void = Suspension.stopUntilContinued
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
      stop()
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
  static func stopUntilContinued() {
    var stop = sigaction()
    stop.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&stop.sa_mask)
    var saved = sigaction()
    sigaction(SIGTSTP, &stop, &saved)
    // To the process, not this thread (raise() did not stop it: the signal stayed pending
    // on a thread that blocks it). Measured on the Virtual display: the process stops
    // here, and the handler below is back only once it continues.
    kill(getpid(), SIGTSTP)
    sigaction(SIGTSTP, &saved, nil)
  }
}
