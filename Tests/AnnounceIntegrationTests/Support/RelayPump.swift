import Foundation

/// The copying half of the test relays (``StoppingRelay``, ``ProtocolRecorder``): one
/// direction of a connection, byte for byte.
enum RelayPump {
  /// Accepts clients on `listener` on a thread of its own until the listener is shut
  /// down, connects each to the daemon's `daemonSocket`, and hands both sockets to `relay`.
  static func acceptClients(
    on listener: Int32, connectingTo daemonSocket: String,
    relay: @escaping @Sendable (_ client: Int32, _ upstream: Int32) -> Void
  ) {
    Thread {
      while true {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        let upstream = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard CommandTests.withAddress(of: daemonSocket, { connect(upstream, $0, $1) }) == 0 else {
          Glibc.close(client)
          Glibc.close(upstream)
          continue
        }
        relay(client, upstream)
      }
    }.start()
  }

  /// Copies from `source` to `destination` until `source` ends, showing `seeing` each
  /// block before it is passed on; then shuts down the writing side of `destination`.
  /// A failed write ends the copy without that shutdown, as the peer is gone.
  static func copy(from source: Int32, to destination: Int32, seeing: (ArraySlice<UInt8>) -> Void) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(source, &buffer, buffer.count)
      guard count > 0 else { break }
      seeing(buffer[0..<count])
      var sent = 0
      while sent < count {
        let written = buffer[sent..<count].withUnsafeBytes {
          send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        guard written > 0 else { return }
        sent += written
      }
    }
    shutdown(destination, Int32(SHUT_WR))
  }

  /// Stops a relay: its listener and every connection are shut down and its socket removed.
  static func close(listener: Int32, sockets: [Int32], path: String) {
    shutdown(listener, Int32(SHUT_RDWR))
    Glibc.close(listener)
    for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    unlink(path)
  }
}
