package import AnnouncerCore
import Synchronization

/// A notification server that records what it is asked to do and answers as a test tells
/// it, as dunst would over D-Bus: no bus. It keeps what a real server keeps, the
/// notifications on screen by id, so that a close, a replace or a signal about an id it
/// never gave behaves as it would on dunst. The one copy every test target uses.
package final class ScriptedNotificationServer: NotificationServer {
  private struct State {
    var nextID: UInt32 = 1
    var onScreen: [UInt32: NotificationRequest] = [:]
    var posted: [NotificationRequest] = []
    var closeCalls: [UInt32] = []
    var refusal: String?
  }

  package let address = "unix:path=scripted-bus"
  package let inputs: AsyncStream<NotificationServerInput>
  private let output: AsyncStream<NotificationServerInput>.Continuation
  private let state = Mutex(State())
  private let details: NotificationServerInformation

  package init(
    information: NotificationServerInformation = NotificationServerInformation(
      name: "scripted", vendor: "announce", version: "1", specificationVersion: "1.2",
      capabilities: ["actions", "body"])
  ) {
    details = information
    (inputs, output) = AsyncStream.makeStream(of: NotificationServerInput.self)
  }

  /// Every notification posted so far, in order.
  package var posted: [NotificationRequest] { state.withLock { $0.posted } }
  /// The ids on screen now.
  package var onScreen: [UInt32] { state.withLock { $0.onScreen.keys.sorted() } }
  /// The ids announce asked to close.
  package var closeCalls: [UInt32] { state.withLock { $0.closeCalls } }

  /// Returns once `count` notifications have been posted in all.
  package func waitUntilPosted(_ count: Int) async {
    while posted.count < count { await Task.yield() }
  }

  /// From now on every post is refused with `reason`; `nil` takes them again.
  package func refuse(with reason: String?) { state.withLock { $0.refusal = reason } }

  /// The user dismisses the notification `id`.
  package func dismiss(_ id: UInt32) { end(id, reason: .dismissed) }
  /// The notification `id` times out on screen.
  package func expire(_ id: UInt32) { end(id, reason: .expired) }
  /// The user invokes the action `key` of the notification `id`; the server then closes it.
  package func invoke(_ key: String, of id: UInt32) {
    guard state.withLock({ $0.onScreen[id] != nil }) else { return }
    output.yield(.actionInvoked(id: id, key: key))
    end(id, reason: .dismissed)
  }
  /// The server leaves the bus.
  package func leave() { output.yield(.lost) }

  package func post(_ notification: NotificationRequest, token: UInt64) {
    let answer = state.withLock { state -> NotificationServerInput in
      state.posted.append(notification)
      if let refusal = state.refusal { return .refused(token, reason: refusal) }
      // A replace keeps the id, as the specification asks, when that one is still up.
      let id: UInt32
      if notification.replaces != 0, state.onScreen[notification.replaces] != nil {
        id = notification.replaces
      } else {
        id = state.nextID
        state.nextID += 1
      }
      state.onScreen[id] = notification
      return .posted(token, id: id)
    }
    output.yield(answer)
  }

  package func close(_ id: UInt32) {
    state.withLock { $0.closeCalls.append(id) }
    end(id, reason: .closedByCall)
  }

  package func information() async -> NotificationServerInformation? { details }

  package func shutdown() async {
    output.finish()
  }

  private func end(_ id: UInt32, reason: NotificationCloseReason) {
    guard state.withLock({ $0.onScreen.removeValue(forKey: id) }) != nil else { return }
    output.yield(.closed(id: id, reason: reason))
  }
}
