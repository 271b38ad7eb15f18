import AnnouncerCore
import Foundation
import Synchronization

/// A second speech-dispatcher client, as another program or a screen reader would be.
/// It records the events of its own messages, so a test can check that it was not cut off.
final class Interrupter: Sendable {
  private let client: SpeechdClient
  private let received = Locked<[SpeechEvent]>([])
  private let collector: Task<Void, Never>

  init(stack: TestStack) async throws {
    client = try await SpeechdClient.connect(address: stack.address, appName: "interrupter")
    let events = client.events
    let received = self.received
    collector = Task {
      for await event in events { received.withLock { $0.append(event) } }
    }
  }

  /// Says `text` and returns its message id.
  func say(_ text: String, priority: SpeechPriority = .text) async throws -> MessageID {
    var request = SpeechRequest(attemptOf: Announcement(text))
    request.priority = priority
    return try await client.say(request)
  }

  /// Waits until message `id` has ended or was cancelled, and returns which; `nil` after `timeout`.
  func finalEvent(of id: MessageID, timeout: Double = 30) async -> SpeechEvent? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let final = received.withLock { events in
        events.first { $0 == .ended(id) || $0 == .cancelled(id) }
      }
      if let final { return final }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return nil
  }

  func close() async {
    await client.close()
    await collector.value
  }
}
