import Glibc

/// Connects a stream socket to speech-dispatcher's address without blocking past a deadline.
///
/// A blocking `connect(2)` waits for as long as the listener does not accept. On a unix
/// socket whose backlog is full, such as a forwarded socket whose sshd session process is
/// stopped or hung, that is for ever; on a TCP port whose accept queue is full, the kernel
/// retries its SYN for about 130 s (`announce doctor` took 133 s there, and then said that
/// nothing answered). Every connection announce makes before libspeechd's goes through here.
enum BoundedConnect {
  /// Why no connection was made.
  enum Failure: Error, Equatable {
    /// The connection failed at once with this `errno`: nothing listens (`ECONNREFUSED`),
    /// there is no socket at the path (`ENOENT`), or it cannot be reached at all.
    case failed(errno: Int32)
    /// Something listens there but did not accept the connection by the deadline.
    case notAccepting
    /// The host's name does not resolve.
    case nameDoesNotResolve
    /// Looking the host's name up did not end by the deadline.
    case lookupTookTooLong
  }

  /// How long to wait before trying a unix socket with a full backlog again. A daemon that
  /// accepts empties its backlog within milliseconds of a burst of clients.
  static let backlogRetryPause: Duration = .milliseconds(10)

  /// A connected non-blocking stream socket to `address`, which the caller closes; or why not,
  /// by `deadline` at the latest.
  static func connect(
    to address: SpeechdAddress, until deadline: ContinuousClock.Instant
  ) -> Result<Int32, Failure> {
    switch address {
    case .unixSocket(let path, _): connect(toPath: path, until: deadline)
    case .inetSocket(let host, let port): connect(host: host, port: port, until: deadline)
    }
  }

  /// A unix socket answers a non-blocking `connect` at once: connected, or `EAGAIN` while
  /// the listener's backlog is full. There is nothing to poll for, so a full backlog is
  /// tried again until the deadline.
  static func connect(toPath path: String, until deadline: ContinuousClock.Instant) -> Result<Int32, Failure>
  {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard path.utf8.count < capacity else { return .failure(.failed(errno: ENAMETOOLONG)) }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
      raw[path.utf8.count] = 0
    }
    while true {
      let socket = Glibc.socket(AF_UNIX, streamType, 0)
      guard socket >= 0 else { return .failure(.failed(errno: errno)) }
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      if connected == 0 { return .success(socket) }
      let code = errno
      close(socket)
      guard code == EAGAIN || code == EINTR else { return .failure(.failed(errno: code)) }
      guard ContinuousClock.now + backlogRetryPause < deadline else { return .failure(.notAccepting) }
      pause(backlogRetryPause)
    }
  }

  /// The host's name is looked up within the deadline (``HostLookup``), then a TCP
  /// connection is started without blocking, and its end waited for with `poll` until the
  /// deadline; `SO_ERROR` then says how it ended.
  static func connect(
    host: String, port: Int, until deadline: ContinuousClock.Instant
  ) -> Result<Int32, Failure> {
    var address: sockaddr_in
    switch HostLookup.address(of: host, port: port, until: deadline) {
    case .success(let found): address = found
    case .failure(.doesNotResolve): return .failure(.nameDoesNotResolve)
    case .failure(.tookTooLong): return .failure(.lookupTookTooLong)
    }
    let socket = Glibc.socket(AF_INET, streamType, 0)
    guard socket >= 0 else { return .failure(.failed(errno: errno)) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if connected == 0 { return .success(socket) }
    // An interrupted connect goes on in the background, as one in progress does.
    guard errno == EINPROGRESS || errno == EINTR else {
      let code = errno
      close(socket)
      return .failure(.failed(errno: code))
    }
    var entry = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else {
        close(socket)
        return .failure(.notAccepting)
      }
      let ready = poll(&entry, 1, milliseconds(roundingUp: left))
      if ready < 0 && errno == EINTR { continue }
      if ready == 0 { continue }
      var code: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      if ready < 0 || getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length) != 0 { code = errno }
      guard code == 0 else {
        close(socket)
        return .failure(.failed(errno: code))
      }
      return .success(socket)
    }
  }

  /// `duration` in whole milliseconds, rounded up, for `poll`: at least 1.
  static func milliseconds(roundingUp duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: max(milliseconds, 1))
  }

  private static let streamType =
    Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

  /// A signal may cut the pause short; the loop then only tries once more sooner.
  private static func pause(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
  }
}
