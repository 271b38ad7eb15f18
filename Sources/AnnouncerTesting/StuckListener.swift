import Glibc

/// A listening socket that never accepts, with its backlog full: what a stopped or hung
/// speech-dispatcher, or the stopped sshd session behind a forwarded socket, looks like to
/// a client. A blocking `connect()` to it waits for ever on a unix socket, and for the
/// kernel's SYN retries, about 130 s, on TCP.
///
/// It is `@unchecked Sendable` because its sockets are all made before it is handed out and
/// never changed after, and ``acceptOne()`` only calls `accept(2)`.
package final class StuckListener: @unchecked Sendable {
  /// Where it listens, in `SPEECHD_ADDRESS` syntax.
  package let address: String
  private let listener: Int32
  /// The connections that fill the backlog, never accepted.
  private var waiting: [Int32] = []

  /// Why it could not be made.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
  }

  /// A unix socket at `path`, whose backlog of none is filled by one connection.
  package static func unix(at path: String) throws(Failure) -> StuckListener {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
      throw Failure(description: "the path \(path) is too long for a unix socket")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
      raw[path.utf8.count] = 0
    }
    let length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let stuck = try StuckListener(family: AF_UNIX, address: "unix_socket:" + path) { fd in
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
      }
    }
    stuck.waiting = try fillBacklog(at: path, within: 8)
    return stuck
  }

  /// Connects to the unix socket at `path` without blocking until its backlog is full (the
  /// kernel says `EAGAIN`), making at most `limit` connections; they are returned, for the
  /// caller to close.
  package static func fillBacklog(at path: String, within limit: Int) throws(Failure) -> [Int32] {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
      raw[min(path.utf8.count, raw.count - 1)] = 0
    }
    var clients: [Int32] = []
    while clients.count < limit {
      let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      guard connected == 0 else {
        let code = errno
        close(client)
        guard code == EAGAIN else {
          for fd in clients { close(fd) }
          throw Failure(description: "connecting to fill the backlog failed: errno \(code)")
        }
        return clients
      }
      clients.append(client)
    }
    for fd in clients { close(fd) }
    throw Failure(description: "the backlog of \(path) did not fill in \(limit) connections")
  }

  /// A TCP socket on 127.0.0.1 at a port the kernel picks, whose accept queue of none is
  /// filled by one connection: the kernel then drops every new connection's SYN.
  package static func tcp() throws(Failure) -> StuckListener {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound, listen(fd, 0) == 0 else {
      close(fd)
      throw Failure(description: "no TCP socket could listen on 127.0.0.1")
    }
    let stuck = StuckListener(
      listener: fd, address: "inet_socket:127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    stuck.waiting.append(client)
    let started = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) }
    }
    guard started == 0 || errno == EINPROGRESS else {
      throw Failure(description: "connecting to fill the queue failed")
    }
    // The queue is full once that connection is made.
    var entry = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
    guard poll(&entry, 1, 5_000) == 1 else {
      throw Failure(description: "the connection that fills the queue was not made")
    }
    return stuck
  }

  private init(listener: Int32, address: String) {
    self.listener = listener
    self.address = address
  }

  private convenience init(family: Int32, address: String, bind: (Int32) -> Int32) throws(Failure) {
    let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0, bind(fd) == 0, listen(fd, 0) == 0 else {
      close(fd)
      throw Failure(description: "no socket could listen at \(address): errno \(errno)")
    }
    self.init(listener: fd, address: address)
  }

  /// Accepts one waiting connection and closes it, which makes room for one more: what a
  /// listener that was only slow does.
  package func acceptOne() {
    let connection = accept(listener, nil, nil)
    if connection >= 0 { close(connection) }
  }

  deinit {
    for fd in waiting { close(fd) }
    close(listener)
  }
}
