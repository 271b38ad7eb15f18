import AnnouncerCore
import Foundation
import Synchronization
import Testing

extension SpeakingTests {
  // Nested in SpeakingTests so that scripts/test's Debian 13 pass (dunst 1.12) runs it too.
  /// The sd-bus client of the notification channel against the real dunst on a private
  /// desktop (Tests/Support/notifystack), with `dunstctl` playing the user.
  @Suite struct NotificationServerTests {
    @Test func aNotificationTheUserDismissesIsClosedAsDismissed() async throws {
      let desktop = try NotifyStack()
      let server = try await connect(desktop)
      let inputs = Inputs(server)
      server.post(NotificationRequest(summary: "Build finished", expiry: .seconds(30)), token: 1)
      let id = try await inputs.postedID(token: 1)
      #expect(try desktop.dunstctl("count", "displayed") == "1")
      try desktop.dunstctl("close")
      #expect(try await inputs.next() == .closed(id: id, reason: .dismissed))
      await server.shutdown()
    }

    @Test func aNotificationNobodyDismissesExpires() async throws {
      let desktop = try NotifyStack()
      let server = try await connect(desktop)
      let inputs = Inputs(server)
      server.post(NotificationRequest(summary: "Tests passed", expiry: .milliseconds(300)), token: 7)
      let id = try await inputs.postedID(token: 7)
      #expect(try await inputs.next() == .closed(id: id, reason: .expired))
      await server.shutdown()
    }

    @Test func theDefaultActionIsReportedWithItsKey() async throws {
      let desktop = try NotifyStack()
      let server = try await connect(desktop)
      let inputs = Inputs(server)
      server.post(NotificationRequest(summary: "Deploy done", expiry: .seconds(30)), token: 2)
      let id = try await inputs.postedID(token: 2)
      try desktop.dunstctl("action", "0")
      #expect(try await inputs.next() == .actionInvoked(id: id, key: "default"))
      await server.shutdown()
    }

    @Test func aNotificationWeCloseIsClosedByACall() async throws {
      let desktop = try NotifyStack()
      let server = try await connect(desktop)
      let inputs = Inputs(server)
      server.post(NotificationRequest(summary: "Waiting", expiry: .seconds(30)), token: 3)
      let id = try await inputs.postedID(token: 3)
      server.close(id)
      #expect(try await inputs.next() == .closed(id: id, reason: .closedByCall))
      #expect(try desktop.dunstctl("count", "displayed") == "0")
      await server.shutdown()
    }

    @Test func theServerSaysWhoItIsAndWhatItCanDo() async throws {
      let desktop = try NotifyStack()
      let server = try await connect(desktop)
      let information = await server.information()
      #expect(information?.name == "dunst")
      #expect(information?.specificationVersion == "1.2")
      #expect(information?.capabilities.contains("actions") == true)
      await server.shutdown()
    }

    @Test func textWithMarkupCharactersAndANULIsShownAsText() async throws {
      let desktop = try NotifyStack()
      let server = try await connect(desktop)
      let inputs = Inputs(server)
      server.post(NotificationRequest(summary: "if a < b && c\u{0}d", expiry: .seconds(30)), token: 4)
      let id = try await inputs.postedID(token: 4)
      // dunst keeps a notification in its history once it is closed.
      try desktop.dunstctl("close")
      #expect(try await inputs.next() == .closed(id: id, reason: .dismissed))
      let history = try desktop.dunstctl("history")
      #expect(history.contains("if a < b && c d"))
      await server.shutdown()
    }

    @Test func aBusWithNoServerIsUnavailableAndSaysSo() async throws {
      let desktop = try NotifyStack(server: false)
      let result = await SdBusNotificationServer.connect(environment: desktop.environment)
      guard case .failure(.noServer(let address, _)) = result else {
        Issue.record("expected no server, got \(result)")
        return
      }
      #expect(address == desktop.environment["DBUS_SESSION_BUS_ADDRESS"])
    }

    @Test func aServerThatGoesAwayIsReportedLost() async throws {
      let desktop = try NotifyStack()
      let server = try await connect(desktop)
      let inputs = Inputs(server)
      server.post(NotificationRequest(summary: "Still here?", expiry: .seconds(30)), token: 5)
      _ = try await inputs.postedID(token: 5)
      try desktop.stopServer()
      #expect(try await inputs.next() == .lost)
      await server.shutdown()
    }

    @Test func aBusThatIsGoneIsUnreachable() async throws {
      let desktop = try NotifyStack()
      let environment = desktop.environment
      desktop.stop()
      let result = await SdBusNotificationServer.connect(environment: environment)
      guard case .failure(.busUnreachable) = result else {
        Issue.record("expected an unreachable bus, got \(result)")
        return
      }
    }

    private func connect(_ desktop: NotifyStack) async throws -> SdBusNotificationServer {
      try await SdBusNotificationServer.connect(environment: desktop.environment).get()
    }
  }
}

/// The server's inputs, one at a time, each within a bound: a real-stack bound, so that a
/// missing signal fails the test instead of hanging it.
private final class Inputs: Sendable {
  private let mailbox = Mailbox()
  private let reader: Task<Void, Never>

  init(_ server: some NotificationServer) {
    let mailbox = self.mailbox
    let inputs = server.inputs
    reader = Task {
      for await input in inputs { mailbox.deliver(input) }
      mailbox.deliver(nil)
    }
  }

  deinit {
    reader.cancel()
  }

  /// The next input; `nil` when the stream ended. Throws when none came within `bound`.
  func next(within bound: Duration = .seconds(10)) async throws -> NotificationServerInput? {
    let mailbox = self.mailbox
    let timeout = Task {
      try await Task.sleep(for: bound)
      mailbox.giveUp()
    }
    defer { timeout.cancel() }
    switch await mailbox.take() {
    case .input(let input): return input
    case .ended: return nil
    case nil: throw StackError("no input from the notification server within \(bound)")
    }
  }

  func postedID(token: UInt64) async throws -> UInt32 {
    let input = try await next()
    guard case .posted(let posted, let id) = input, posted == token else {
      throw StackError("expected the id of post \(token), got \(String(describing: input))")
    }
    return id
  }
}

/// Inputs that arrived and nobody took yet, and the one taker waiting for the next.
private final class Mailbox: Sendable {
  enum Letter: Sendable {
    case input(NotificationServerInput)
    case ended
  }
  private struct State {
    var letters: [Letter] = []
    var taker: CheckedContinuation<Letter?, Never>?
  }
  private let state = Mutex(State())

  func deliver(_ input: NotificationServerInput?) {
    let letter = input.map(Letter.input) ?? .ended
    let taker = state.withLock { state -> CheckedContinuation<Letter?, Never>? in
      guard let taker = state.taker else {
        state.letters.append(letter)
        return nil
      }
      state.taker = nil
      return taker
    }
    taker?.resume(returning: letter)
  }

  /// The next letter; `nil` when ``giveUp()`` came first.
  func take() async -> Letter? {
    await withCheckedContinuation { continuation in
      let letter = state.withLock { state -> Letter? in
        guard state.letters.isEmpty else { return state.letters.removeFirst() }
        state.taker = continuation
        return nil
      }
      if let letter { continuation.resume(returning: letter) }
    }
  }

  func giveUp() {
    let taker = state.withLock { state in
      defer { state.taker = nil }
      return state.taker
    }
    taker?.resume(returning: nil)
  }
}
