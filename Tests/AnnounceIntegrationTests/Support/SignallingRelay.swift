import Foundation
import Synchronization

/// A Unix socket in front of a private speech-dispatcher that passes every byte through,
/// and runs `action` once, when a chosen connection is accepted, before it passes on any
/// of that connection's bytes: the first connection, or the first after the daemon told
/// a client that an announcement ended (`702 END`).
///
/// A run connects only once the wait of `--when-done` has ended, and each record of a
/// replay is a run with a connection of its own: so the action runs just after the wait,
/// or between two replayed records, however loaded the machine is.
final class SignallingRelay: Sendable {
  /// Which connection runs the action.
  enum Moment: Sendable {
    case firstConnection
    case firstConnectionAfterAnEnd
  }

  /// Where clients connect: the address to give as `SPEECHD_ADDRESS`.
  let path: String
  private let listener: Int32
  private let sockets = Mutex<[Int32]>([])
  private let state = Mutex<(ended: Bool, action: (@Sendable () -> Void)?)>((false, nil))
  private let acted = Atomic(false)

  /// Whether the action ran.
  var hasActed: Bool { acted.load(ordering: .acquiring) }

  init(at path: String, daemonSocket: String, at moment: Moment) throws {
    self.path = path
    unlink(path)
    listener = try CommandTests.listeningSocket(at: path, backlog: 16)
    RelayPump.acceptClients(on: listener, connectingTo: daemonSocket) { [self] client, upstream in
      sockets.withLock { $0 += [client, upstream] }
      let action = state.withLock { state -> (@Sendable () -> Void)? in
        guard moment == .firstConnection || state.ended, let action = state.action else { return nil }
        state.action = nil
        return action
      }
      if let action {
        action()
        acted.store(true, ordering: .releasing)
      }
      Thread { RelayPump.copy(from: client, to: upstream) { _ in } }.start()
      Thread { self.pumpNoticingEnds(from: upstream, to: client) }.start()
    }
  }

  /// Sets what runs at the chosen connection: set it once the client it acts on is started.
  func run(_ action: @escaping @Sendable () -> Void) {
    state.withLock { $0.action = action }
  }

  /// Copies the daemon's bytes to the client, noting when an END event passed.
  private func pumpNoticingEnds(from source: Int32, to destination: Int32) {
    var seen: [UInt8] = []
    RelayPump.copy(from: source, to: destination) { block in
      guard !state.withLock({ $0.ended }) else { return }
      seen += block
      if seen.firstRange(of: Array("702 END".utf8)) != nil { state.withLock { $0.ended = true } }
    }
  }

  /// Stops relaying: every connection is shut down and the socket removed.
  func close() {
    RelayPump.close(listener: listener, sockets: sockets.withLock { $0 }, path: path)
  }
}
