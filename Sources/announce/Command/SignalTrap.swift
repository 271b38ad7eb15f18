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

  /// A trap that handles every signal from the moment it returns.
  ///
  /// libdispatch registers a signal source later, on its own thread, and a first trap
  /// ignores the signals from its start, so a signal that came in between would be lost:
  /// 28 of 100 SIGHUPs sent the moment `--when-done` said it was waiting were, when the
  /// trap was not waited for. So this returns once every source is registered.
  static func armed(onSignal: @escaping @Sendable (HandledSignal) async -> Void) async -> SignalTrap {
    let registered = DispatchGroup()
    let trap = SignalTrap(registered: registered, onSignal: onSignal)
    await withCheckedContinuation { continuation in
      registered.notify(queue: .global()) { continuation.resume() }
    }
    return trap
  }

  /// `registered` is left once per signal when libdispatch has registered its source.
  private init(registered: DispatchGroup, onSignal: @escaping @Sendable (HandledSignal) async -> Void) {
    let caught = Caught()
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
