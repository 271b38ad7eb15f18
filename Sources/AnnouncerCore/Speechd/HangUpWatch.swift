import FoundationEssentials
import Glibc
import Synchronization

/// Notices when speech-dispatcher closes our socket.
///
/// libspeechd says nothing when the server dies: its event thread just exits.
/// This watch polls a duplicate of the socket for hang-up (without reading,
/// so libspeechd's reader is undisturbed) and calls `onHangUp` once.
final class HangUpWatch: Sendable {
  private static let pollInterval: Int32 = 200
  /// Linux's POLLRDHUP, which Glibc exports only under _GNU_SOURCE.
  private static let readHangUp: Int16 = 0x2000

  private let stopped = Atomic(false)

  /// Starts watching `socket`; returns `nil` when the socket cannot be duplicated.
  init?(socket: Int32, onHangUp: @escaping @Sendable () -> Void) {
    let watched = dup(socket)
    guard watched >= 0 else { return nil }
    let started = SystemThread.start { [self] in
      defer { close(watched) }
      var entry = pollfd(fd: watched, events: Self.readHangUp, revents: 0)
      while !self.stopped.load(ordering: .acquiring) {
        entry.revents = 0
        let ready = poll(&entry, 1, Self.pollInterval)
        let hangUp = Int16(POLLHUP | POLLERR | POLLNVAL) | Self.readHangUp
        if ready > 0, entry.revents & hangUp != 0 {
          if !self.stopped.load(ordering: .acquiring) { onHangUp() }
          return
        }
      }
    }
    guard started else {
      close(watched)
      return nil
    }
  }

  /// Stops watching within one poll interval. A hang-up found in that last poll is not reported.
  func stop() {
    stopped.store(true, ordering: .releasing)
  }
}
