import Glibc

/// Connecting to a unix socket by path, for the checks that look at a socket before
/// libspeechd does (the SSIP greeting, a forward left behind).
enum UnixSocket {
  /// A connected stream socket to `path`, which the caller closes; otherwise the
  /// `errno` of what failed (`ENAMETOOLONG` for a path that does not fit).
  ///
  /// A `nonBlocking` socket fails with `EAGAIN` when the listener's backlog is full,
  /// where a blocking one would wait until the listener accepts, perhaps for ever.
  static func connect(toPath path: String, nonBlocking: Bool = false) -> Result<Int32, Errno> {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard path.utf8.count < capacity else { return .failure(Errno(ENAMETOOLONG)) }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
      raw[path.utf8.count] = 0
    }
    let type = Int32(SOCK_STREAM.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
    let socket = Glibc.socket(AF_UNIX, type, 0)
    guard socket >= 0 else { return .failure(Errno(errno)) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let failure = Errno(errno)
      close(socket)
      return .failure(failure)
    }
    return .success(socket)
  }

  /// An `errno` value as an error.
  struct Errno: Error, Equatable {
    let code: Int32
    init(_ code: Int32) { self.code = code }
  }
}
