import Synchronization

@testable import announce

/// Signals that a test sends to a run, in place of the process's own.
final class ScriptedSignals: SignalSource, ArmedSignals {
  private let state = Mutex(
    (handler: (@Sendable (HandledSignal) async -> Void)?.none, received: HandledSignal?.none, armed: false))
  private let armings: AsyncStream<Void>
  private let armedSink: AsyncStream<Void>.Continuation

  init() { (armings, armedSink) = AsyncStream.makeStream(of: Void.self) }

  func armed(onSignal: @escaping @Sendable (HandledSignal) async -> Void) async -> any ArmedSignals {
    state.withLock {
      $0.handler = onSignal
      $0.armed = true
    }
    armedSink.yield()
    return self
  }

  var received: HandledSignal? { state.withLock { $0.received } }

  func disarm() { state.withLock { $0.armed = false } }

  /// Returns once a run has armed the signals.
  func waitUntilArmed() async {
    var iterator = armings.makeAsyncIterator()
    _ = await iterator.next()
  }

  /// Sends `signal`, as the first one claims the ending, and returns once it is handled.
  func send(_ signal: HandledSignal) async {
    let handler = state.withLock { state -> (@Sendable (HandledSignal) async -> Void)? in
      guard state.armed, state.received == nil else { return nil }
      state.received = signal
      return state.handler
    }
    await handler?(signal)
  }
}
