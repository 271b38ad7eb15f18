@testable import AnnouncerCore
import Synchronization

/// A speech backend whose events the test writes: it records every request,
/// gives out increasing message ids, and emits whatever events the test asks for.
final class ScriptedBackend: SpeechBackend {
  /// One request the announcer sent, with the id it was given.
  struct Said: Sendable {
    var request: SpeechRequest
    var id: MessageID
  }

  let events: AsyncStream<SpeechEvent>
  /// Every request, in order, as it is said.
  let said: AsyncStream<Said>

  private let eventSink: AsyncStream<SpeechEvent>.Continuation
  private let saidSink: AsyncStream<Said>.Continuation
  private let state = Mutex((nextID: 100, failing: false, cancels: 0))

  init() {
    (events, eventSink) = AsyncStream.makeStream(of: SpeechEvent.self)
    (said, saidSink) = AsyncStream.makeStream(of: Said.self)
  }

  /// From now on, every `say` fails as if the connection were gone.
  func failFromNowOn() { state.withLock { $0.failing = true } }

  /// How many times the announcer cancelled speech.
  var cancelCount: Int { state.withLock { $0.cancels } }

  func emit(_ event: SpeechEvent) { eventSink.yield(event) }

  func say(_ request: SpeechRequest) async throws(SpeechBackendError) -> MessageID {
    let (id, failing) = state.withLock { state in
      state.nextID += 1
      return (state.nextID, state.failing)
    }
    if failing { throw SpeechBackendError("scripted failure") }
    saidSink.yield(Said(request: request, id: id))
    return id
  }

  func cancelAll() async { state.withLock { $0.cancels += 1 } }

  func close() async {
    eventSink.finish()
    saidSink.finish()
  }
}
