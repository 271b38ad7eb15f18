import Synchronization

/// A speech-dispatcher connection that comes back.
///
/// When speech-dispatcher goes away, this reports ``SpeechEvent/connectionLost``,
/// connects again with back-off (for the user's default address libspeechd starts
/// the daemon again; for an explicit address it waits for the daemon to return),
/// and reports ``SpeechEvent/connectionRestored``. Meanwhile `say` fails at once.
package final class ReconnectingSpeechdBackend: SpeechBackend {
  /// Every event of every connection, with the losses and restorations between them.
  package let events: AsyncStream<SpeechEvent>
  /// Where it connects, for messages to people.
  package let address: SpeechdAddress

  private let current: Mutex<SpeechdClient?>
  private let closed = Atomic(false)
  private let supervisor = Mutex<Task<Void, Never>?>(nil)

  /// The first pause before connecting again, doubled after each failure up to ``longestPause``.
  static let firstPause: Duration = .milliseconds(100)
  /// The longest pause between two attempts to connect again.
  static let longestPause: Duration = .seconds(1)

  /// Connects; throws when the first connection cannot be made.
  ///
  /// The address is worked out once, as ``SpeechdClient/connect(address:environment:appName:)``
  /// does; connecting again goes back to the same one.
  package static func connect(
    address: String? = nil, environment: [String: String], appName: String = "announce"
  ) async throws(SpeechdConnectError) -> ReconnectingSpeechdBackend {
    let first = try await SpeechdClient.connect(
      address: address, environment: environment, appName: appName)
    return ReconnectingSpeechdBackend(first: first, appName: appName)
  }

  /// Whether ``address`` is a socket forwarded over SSH from the user's own machine.
  package let isForwardedOverSSH: Bool

  private init(first: SpeechdClient, appName: String) {
    address = first.address
    isForwardedOverSSH = first.isForwardedOverSSH
    let resolved = first.address
    let isForwarded = first.isForwardedOverSSH
    current = Mutex(first)
    let (events, continuation) = AsyncStream.makeStream(of: SpeechEvent.self)
    self.events = events
    let task = Task { [self] in
      var client = first
      while !closed.load(ordering: .acquiring) {
        var reportedLoss = false
        for await event in client.events {
          continuation.yield(event)
          if event == .connectionLost {
            reportedLoss = true
            break
          }
        }
        if closed.load(ordering: .acquiring) { break }
        if !reportedLoss { continuation.yield(.connectionLost) }
        current.withLock { $0 = nil }
        let lost = client
        Task { await lost.close() }
        guard
          let next = await reconnect(to: resolved, isForwarded: isForwarded, appName: appName)
        else { break }
        client = next
        current.withLock { $0 = next }
        continuation.yield(.connectionRestored)
      }
      continuation.finish()
    }
    supervisor.withLock { $0 = task }
  }

  private func reconnect(
    to address: SpeechdAddress, isForwarded: Bool, appName: String
  ) async
    -> SpeechdClient?
  {
    var pause = Self.firstPause
    while !closed.load(ordering: .acquiring) {
      try? await Task.sleep(for: pause)
      if closed.load(ordering: .acquiring) { return nil }
      if let client = try? await SpeechdConnector.connect(
        to: address, appName: appName, isForwarded: isForwarded)
      {
        if closed.load(ordering: .acquiring) {
          await client.close()
          return nil
        }
        return client
      }
      pause = min(pause * 2, Self.longestPause)
    }
    return nil
  }

  /// Sends one message on the current connection; fails at once while there is none.
  package func say(_ request: SpeechRequest) async throws(SpeechBackendError) -> MessageID {
    guard let client = current.withLock({ $0 }) else {
      throw SpeechBackendError("The connection to speech-dispatcher at \(address) is lost.")
    }
    return try await client.say(request)
  }

  /// Cancels our speech on the current connection.
  package func cancelAll() async {
    await current.withLock({ $0 })?.cancelAll()
  }

  /// Closes the current connection and stops reconnecting.
  package func close() async {
    closed.store(true, ordering: .releasing)
    let client = current.withLock { client in
      defer { client = nil }
      return client
    }
    await client?.close()
    supervisor.withLock { $0 }?.cancel()
  }
}
