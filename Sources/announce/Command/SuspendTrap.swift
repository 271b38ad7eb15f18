import Dispatch
import Glibc
import Synchronization

/// Handles Control-Z (SIGTSTP) while a run delivers: `whenStopping` gives back what the
/// run holds, such as the braille display, then the process stops as it would have;
/// once it continues (SIGCONT), `whenContinued` takes it again. Without it, the flash
/// held the display over the screen reader's own text until its time ran out.
final class SuspendTrap: Sendable {
  private let source: Mutex<(any DispatchSourceSignal)?>

  /// Whether a trap was armed before: libdispatch installs its own handler for SIGTSTP
  /// when the first source is registered, once per process (see ``SignalTrap``).
  private static let armedBefore = Atomic<Bool>(false)

  /// A trap that handles SIGTSTP from the moment it returns.
  static func armed(
    whenStopping: @escaping @Sendable () async -> Void, whenContinued: @escaping @Sendable () async -> Void
  ) async -> SuspendTrap {
    let registered = DispatchGroup()
    let trap = SuspendTrap(registered: registered, whenStopping: whenStopping, whenContinued: whenContinued)
    await withCheckedContinuation { continuation in
      registered.notify(queue: .global()) { continuation.resume() }
    }
    return trap
  }

  private init(
    registered: DispatchGroup, whenStopping: @escaping @Sendable () async -> Void,
    whenContinued: @escaping @Sendable () async -> Void
  ) {
    if !Self.armedBefore.exchange(true, ordering: .sequentiallyConsistent) { signal(SIGTSTP, SIG_IGN) }
    let source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
    registered.enter()
    source.setRegistrationHandler { registered.leave() }
    source.setEventHandler {
      Task {
        await whenStopping()
        Self.stopUntilContinued()
        await whenContinued()
      }
    }
    source.resume()
    self.source = Mutex(source)
  }

  /// Stops the process as SIGTSTP would have, and returns once it continues: the default
  /// action is put back for the one signal raised here, then the handler before it.
  private static func stopUntilContinued() {
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

  /// Stops handling SIGTSTP; it stays ignored while the process sums up.
  func disarm() {
    source.withLock { $0?.cancel() }
  }
}
