import Foundation
import Synchronization

/// A Unix socket in front of a private speech-dispatcher that passes every byte through
/// and keeps what the clients sent: the SSIP commands, such as `SET self LANGUAGE de`,
/// that show which language a sentence went to the voice with.
final class ProtocolRecorder: Sendable {
  /// Where clients connect: the address to give as `SPEECHD_ADDRESS`.
  let path: String
  private let listener: Int32
  private let sockets = Mutex<[Int32]>([])
  private let sent = Mutex(Data())

  /// What every client has sent so far, as text.
  var commands: String { String(decoding: sent.withLock { $0 }, as: UTF8.self) }

  init(daemonSocket: String) throws {
    path = NSTemporaryDirectory() + "announce-protocol-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    listener = try CommandTests.listeningSocket(at: path, backlog: 16)
    RelayPump.acceptClients(on: listener, connectingTo: daemonSocket) { [self] client, upstream in
      sockets.withLock { $0 += [client, upstream] }
      Thread { self.pump(from: client, to: upstream, keeping: true) }.start()
      Thread { self.pump(from: upstream, to: client, keeping: false) }.start()
    }
  }

  private func pump(from source: Int32, to destination: Int32, keeping: Bool) {
    RelayPump.copy(from: source, to: destination) { block in
      if keeping { sent.withLock { $0.append(contentsOf: block) } }
    }
  }

  /// Stops relaying: every connection is shut down and the socket removed.
  func close() {
    RelayPump.close(listener: listener, sockets: sockets.withLock { $0 }, path: path)
  }
}
