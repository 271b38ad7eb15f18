import Foundation
import Synchronization

/// A Unix socket in front of a private speech-dispatcher that passes every byte through,
/// and stops the daemon with SIGSTOP just before it passes on the first command that
/// contains `trigger`.
///
/// Stopping the daemon by timing alone (a SIGSTOP some milliseconds after the command
/// starts) lands in a different phase each run: a listing of modules takes about 2 ms.
/// This way the real daemon is really stopped, always with the chosen command unread.
final class StoppingRelay: Sendable {
  /// Where clients connect: the address to give as `SPEECHD_ADDRESS`.
  let path: String
  private let listener: Int32
  private let sockets = Mutex<[Int32]>([])
  private let stopped = Atomic(false)

  /// Whether the daemon was stopped.
  var hasStopped: Bool { stopped.load(ordering: .acquiring) }

  init(at path: String, daemonSocket: String, daemon: pid_t, stoppingAt trigger: String) throws {
    self.path = path
    unlink(path)
    listener = try CommandTests.listeningSocket(at: path, backlog: 16)
    RelayPump.acceptClients(on: listener, connectingTo: daemonSocket) { [self] client, upstream in
      sockets.withLock { $0 += [client, upstream] }
      Thread { self.pump(from: client, to: upstream, stopping: daemon, at: Array(trigger.utf8)) }.start()
      Thread { self.pump(from: upstream, to: client, stopping: nil, at: []) }.start()
    }
  }

  /// Copies bytes until either end closes; stops `daemon` before passing on `trigger`.
  private func pump(from source: Int32, to destination: Int32, stopping daemon: pid_t?, at trigger: [UInt8]) {
    var seen: [UInt8] = []
    RelayPump.copy(from: source, to: destination) { block in
      guard let daemon, !hasStopped else { return }
      seen += block
      if seen.firstRange(of: trigger) != nil {
        stopped.store(true, ordering: .releasing)
        kill(daemon, SIGSTOP)
      }
    }
  }

  /// Stops relaying: every connection is shut down and the socket removed.
  func close() {
    RelayPump.close(listener: listener, sockets: sockets.withLock { $0 }, path: path)
  }
}
