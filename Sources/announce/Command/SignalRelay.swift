import Synchronization

/// The one trap of a ``RunDriver`` run that has phases (the wait of `--when-done`, then
/// the run that speaks): armed before the first phase and kept until the last ends, it
/// hands each ``HandledSignal`` to the phase that handles signals at that moment, the
/// last as its ``SignalSource``.
///
/// A trap of the wait's own, disarmed at the end of the wait, left a signal that came
/// before the next phase armed to libdispatch's handler, where it was lost and the
/// announcement spoken.
final class SignalRelay: SignalSource, ArmedSignals {
  /// Who takes the next signal.
  private enum Holder {
    /// A phase's handler.
    case handler(@Sendable (HandledSignal) async -> Void)
    /// The last phase disarmed: signals change nothing any more.
    case closed
  }

  private let state: Mutex<(holder: Holder, received: HandledSignal?)>

  /// - Parameter first: the handler of the first phase.
  init(first: @escaping @Sendable (HandledSignal) async -> Void) {
    state = Mutex((.handler(first), nil))
  }

  /// Passes `signal`, the first the trap caught, to whoever handles it now.
  func deliver(_ signal: HandledSignal) async {
    let holder = state.withLock { state -> Holder? in
      guard state.received == nil else { return nil }
      state.received = signal
      return state.holder
    }
    if case .handler(let handler) = holder { await handler(signal) }
  }

  /// Makes `handler` take the signals from now on. Returns `false`, and hands over
  /// nothing, when a signal came already: the phase it went to has ended the run.
  func handOver(to handler: @escaping @Sendable (HandledSignal) async -> Void) -> Bool {
    state.withLock { state in
      guard state.received == nil else { return false }
      state.holder = .handler(handler)
      return true
    }
  }

  /// Hands the signals to the last phase. When one came before, it has ended the run
  /// already, and `onSignal` gets it too, so that the phase cancels what it would
  /// otherwise go on to deliver before the process exits.
  func armed(onSignal: @escaping @Sendable (HandledSignal) async -> Void) async -> any ArmedSignals {
    let earlier = state.withLock { state -> HandledSignal? in
      state.holder = .handler(onSignal)
      return state.received
    }
    if let earlier { await onSignal(earlier) }
    return self
  }

  /// The signal that arrived, if one did.
  var received: HandledSignal? { state.withLock { $0.received } }

  func disarm() {
    state.withLock { $0.holder = .closed }
  }
}
