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
    client = try await SpeechdClient.connect(address: stack.address, environment: [:], appName: "interrupter")
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

  /// Cancels this client's own speech (`CANCEL self`), as a screen reader such as Orca does
  /// before it says the next thing.
  func cancelOwnSpeech() async {
    await client.cancelAll()
  }

  /// Sends announce's own quiet probe, as announce does while it waits for quiet, and
  /// returns its message id.
  func probe() async throws -> MessageID {
    try await client.say(.quietProbe)
  }

  /// Waits until message `id` has ended or was cancelled, and returns which; `nil` after `timeout`.
  func finalEvent(of id: MessageID, timeout: Double = 30) async -> SpeechEvent? {
    await firstEvent(timeout: timeout) { $0 == .ended(id) || $0 == .cancelled(id) }
  }

  /// Waits until message `id` has begun to speak; false after `timeout`.
  func waitUntilSpeaking(_ id: MessageID, timeout: Double = 10) async -> Bool {
    await firstEvent(timeout: timeout) { $0 == .began(id) } != nil
  }

  /// Whether message `id` has begun and has neither ended nor been cancelled, as far as
  /// the events received so far say.
  func isSpeaking(_ id: MessageID) -> Bool {
    received.withLock { events in
      events.contains(.began(id)) && !events.contains(.ended(id)) && !events.contains(.cancelled(id))
    }
  }

  /// The first event received that `matches`, once it has come; `nil` after `timeout`.
  private func firstEvent(timeout: Double, where matches: (SpeechEvent) -> Bool) async -> SpeechEvent? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let event = received.withLock({ $0.first(where: matches) }) { return event }
      // Often enough to time a gap after an event within a few milliseconds.
      try? await Task.sleep(for: .milliseconds(2))
    }
    return nil
  }

  func close() async {
    await client.close()
    await collector.value
  }
}
