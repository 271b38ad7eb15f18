import Synchronization

/// The signals of a `--when-done` run: one trap, armed before the wait and kept until the
/// run ends, hands each ``HandledSignal`` to whoever handles signals at that moment: the
/// wait, then the run that speaks the announcement, as its ``SignalSource``.
///
/// Between the two, from the process's end until the announcement's run arms (while it
/// connects and checks the voice), nobody does, and such a signal goes to `unhandled`,
/// which ends the run: a trap of the wait's own, disarmed at the end of the wait, left
/// that signal to libdispatch's handler, where it was lost and the announcement spoken.
final class SignalRelay: SignalSource, ArmedSignals {
  /// Who takes the next signal.
  private enum Holder {
    /// Nobody: it goes to `unhandled`.
    case nobody
    /// A handler armed through ``hand(to:)`` or ``armed(onSignal:)``.
    case handler(@Sendable (HandledSignal) async -> Void)
    /// The announcement's run disarmed: signals change nothing any more.
    case closed
  }

  private let state = Mutex<(holder: Holder, received: HandledSignal?)>((.nobody, nil))
  private let unhandled: @Sendable (HandledSignal) -> Void

  /// - Parameter unhandled: called for a signal that arrives while nobody handles signals.
  init(unhandled: @escaping @Sendable (HandledSignal) -> Void) {
    self.unhandled = unhandled
  }

  /// Passes `signal`, the first the trap caught, to whoever handles it now.
  func deliver(_ signal: HandledSignal) async {
    let holder = state.withLock { state -> Holder? in
      guard state.received == nil else { return nil }
      state.received = signal
      return state.holder
    }
    switch holder {
    case .handler(let handler): await handler(signal)
    case .nobody: unhandled(signal)
    case .closed, nil: break
    }
  }

  /// Makes `handler` take the signals from now on; `nil` leaves them to `unhandled`.
  func hand(to handler: (@Sendable (HandledSignal) async -> Void)?) {
    state.withLock { $0.holder = handler.map(Holder.handler) ?? .nobody }
  }

  /// Hands the signals to the announcement's run. When one came before, it has ended the
  /// run through `unhandled` already, and `onSignal` gets it too, so that the run
  /// cancels what it would otherwise go on to speak before the process exits.
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
