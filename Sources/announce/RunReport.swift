import AnnouncerCore
import Synchronization

/// Collects the outcome of every announcement from the event stream.
final class RunReport: Sendable {
  /// One announcement that was not heard to the end.
  struct Failure: Sendable {
    var id: AnnouncementID
    var reason: GiveUpReason
  }

  private let collected = Mutex<[Failure]>([])

  /// Records `event` if it is a final outcome other than spoken.
  func record(_ event: AnnouncerEvent) {
    if case .gaveUp(let reason) = event.kind {
      collected.withLock { $0.append(Failure(id: event.announcement, reason: reason)) }
    }
  }

  /// The announcements that were not delivered, in the order they gave up.
  var failures: [Failure] { collected.withLock { $0 } }
}
