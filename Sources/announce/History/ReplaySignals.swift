import Synchronization

/// The signals of a whole replay: one trap from its start to its end, which hands a signal
/// to the announcement being spoken then, and keeps one that arrives between two of them.
///
/// A trap armed for each announcement alone leaves the signals ignored between them (see
/// ``SignalTrap/disarm()``), so a Control-C there was lost and the replay went on. Here
/// the replay stops before the next announcement instead, and one whose run has not armed
/// its signals yet gets the signal as soon as it does.
final class ReplaySignals: SignalSource, ArmedSignals {
  private let state = Mutex(
    (handler: (@Sendable (HandledSignal) async -> Void)?.none, received: HandledSignal?.none))
  private let trap = Mutex<(any ArmedSignals)?>(nil)

  /// Arms `source` for the whole replay.
  static func armed(from source: any SignalSource) async -> ReplaySignals {
    let relay = ReplaySignals()
    let trap = await source.armed { signal in await relay.deliver(signal) }
    relay.trap.withLock { $0 = trap }
    return relay
  }

  private func deliver(_ signal: HandledSignal) async {
    let handler = state.withLock { state -> (@Sendable (HandledSignal) async -> Void)? in
      guard state.received == nil else { return nil }
      state.received = signal
      return state.handler
    }
    await handler?(signal)
  }

  /// The first signal of the replay, if one arrived.
  var received: HandledSignal? { state.withLock { $0.received } }

  /// Hands the signals to one announcement's run until it disarms them; one that arrived
  /// before is handed over at once.
  func armed(onSignal: @escaping @Sendable (HandledSignal) async -> Void) async -> any ArmedSignals {
    let early = state.withLock { state -> HandledSignal? in
      state.handler = onSignal
      return state.received
    }
    if let early { Task { await onSignal(early) } }
    return self
  }

  /// Ends one announcement's turn: a signal from now on waits for the next, or ends the replay.
  func disarm() { state.withLock { $0.handler = nil } }

  /// Ends the replay's trap.
  func disarmAll() {
    disarm()
    trap.withLock { $0?.disarm() }
  }
}
