/// Where a run learns of the ``HandledSignal``s that end it: the process's own signals
/// (``ProcessSignals``) in the command, scripted ones in the tests.
protocol SignalSource: Sendable {
  /// Starts handling the signals, and returns once a signal sent from now on is sure to
  /// reach `onSignal`, which is called for the first one only.
  func armed(onSignal: @escaping @Sendable (HandledSignal) async -> Void) async -> any ArmedSignals
}

/// Signals being handled, until ``disarm()``.
protocol ArmedSignals: Sendable {
  /// The signal that arrived, if one did.
  var received: HandledSignal? { get }
  /// Stops handling them.
  func disarm()
}

/// The signals the process receives, through ``SignalTrap``.
struct ProcessSignals: SignalSource {
  func armed(onSignal: @escaping @Sendable (HandledSignal) async -> Void) async -> any ArmedSignals {
    await SignalTrap.armed(onSignal: onSignal)
  }
}

extension SignalTrap: ArmedSignals {}
