import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Takes over every ``HandledSignal`` while a run speaks: the first one that arrives calls
/// `onSignal`, which cancels our speech and ends the run through the same place as its
/// normal end. The trap exits nothing itself.
final class SignalTrap: Sendable {
  private let sources: Mutex<[any DispatchSourceSignal]>
  private let caught: Caught
  /// Left once per signal when libdispatch has registered its source (see ``armed()``).
  private let registered = DispatchGroup()

  /// The number of the first signal that arrived; 0 while none has. A class, so that
  /// the signal handlers can share it.
  private final class Caught: Sendable {
    let number = Atomic<Int32>(0)
  }

  /// Whether a trap was armed before in this process. libdispatch installs its own
  /// handler for a signal when the first source for it is registered, once per process,
  /// and never again; so only the first trap ignores the signals until then, and a later
  /// one (after the wait of `--when-done`) must leave that handler in place, or it would
  /// get no signal at all.
  private static let armedBefore = Atomic<Bool>(false)

  init(onSignal: @escaping @Sendable (HandledSignal) async -> Void) {
    let caught = Caught()
    let registered = registered
    let first = !Self.armedBefore.exchange(true, ordering: .sequentiallyConsistent)
    let sources = HandledSignal.allCases.map { signal in
      if first { Glibc.signal(signal.number, SIG_IGN) }
      let source = DispatchSource.makeSignalSource(signal: signal.number, queue: .global())
      registered.enter()
      source.setRegistrationHandler { registered.leave() }
      source.setEventHandler {
        // Claimed here, as the signal arrives and before our speech is cancelled, so that
        // the session, which ends because of that cancelling, sees that a signal ends the run.
        guard
          caught.number.compareExchange(
            expected: 0, desired: signal.number, ordering: .sequentiallyConsistent
          ).exchanged
        else { return }
        Task { await onSignal(signal) }
      }
      source.resume()
      return source
    }
    self.caught = caught
    self.sources = Mutex(sources)
  }

  /// Returns once every signal reaches the trap. libdispatch registers a source later, on
  /// its own thread; a first trap ignores the signals from its start, so one that came in
  /// between was lost: `--when-done` said it was waiting, took a SIGHUP sent at once as
  /// nothing, and waited on (1 run of the test in about 40).
  func armed() async {
    await withCheckedContinuation { continuation in
      registered.notify(queue: .global()) { continuation.resume() }
    }
  }

  /// The signal that arrived, if one did. A run that ends because of it exits with the
  /// signal's status, not with the outcome of the announcements it cancelled.
  var received: HandledSignal? {
    let number = caught.number.load(ordering: .sequentiallyConsistent)
    return HandledSignal.allCases.first { $0.number == number }
  }

  /// Stops reacting to the signals; they stay ignored, so a late one cannot kill the
  /// process while it prints its results.
  func disarm() {
    sources.withLock { sources in
      for source in sources { source.cancel() }
    }
  }
}
