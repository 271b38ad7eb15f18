import Synchronization

/// Hands every event to everyone who subscribed: the announcer's to
/// ``Announcer/events()``, the braille flasher's to ``BrailleFlasher/events()``.
final class EventHub<Event: Sendable>: Sendable {
  private struct Subscribers {
    var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
    var lastKey = 0
  }

  private let subscribers = Mutex(Subscribers())

  /// A new stream that receives every event published from now on.
  func subscribe() -> AsyncStream<Event> {
    let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
    let key = subscribers.withLock {
      $0.lastKey += 1
      $0.continuations[$0.lastKey] = continuation
      return $0.lastKey
    }
    continuation.onTermination = { [weak self] _ in
      self?.subscribers.withLock { $0.continuations[key] = nil }
    }
    return stream
  }

  /// Sends `event` to every subscriber.
  @Sendable func publish(_ event: Event) {
    subscribers.withLock {
      for continuation in $0.continuations.values { continuation.yield(event) }
    }
  }

  /// Ends every subscriber's stream.
  func finishAll() {
    let continuations = subscribers.withLock { subscribers in
      let all = Array(subscribers.continuations.values)
      subscribers.continuations = [:]
      return all
    }
    for continuation in continuations { continuation.finish() }
  }
}
