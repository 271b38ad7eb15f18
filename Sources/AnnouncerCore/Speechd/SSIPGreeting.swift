import FoundationEssentials
import Glibc

/// Checks that whatever listens at an address speaks SSIP before libspeechd is let near it.
///
/// libspeechd 0.11.4 crashes (SIGSEGV) or calls `exit(1)` when the peer is not
/// speech-dispatcher, so announce first sends one harmless command on a socket of
/// its own and looks for an SSIP reply.
enum SSIPGreeting {
  /// What the check found.
  enum Finding: Equatable {
    /// Nothing accepted the connection; libspeechd may try to start the daemon.
    case nobodyListens
    /// speech-dispatcher answered.
    case speechDispatcher
    /// Something listens, but it said nothing within the bound. The kernel accepts a
    /// connection into the listen backlog for a daemon that is stopped (SIGSTOP) or
    /// frozen, so this is what such a daemon looks like; with its backlog full, the
    /// connection is refused with `EAGAIN`, which counts the same.
    case silent
    /// Something answered, but not in SSIP, or hung up at once.
    case somethingElse
  }

  /// How long the whole check may take, the goodbye included. speech-dispatcher
  /// answers in about a millisecond; the bound is for a loaded machine.
  static let replyBound: Duration = .seconds(2)

  /// What listens at `address`, all within `bound`: connecting, the reply, and the goodbye.
  static func check(_ address: SpeechdAddress, within bound: Duration = replyBound) -> Finding {
    let deadline = ContinuousClock.now + bound
    let socket: Int32
    switch connectedSocket(to: address) {
    case .success(let connected): socket = connected
    case .failure(let error): return error.code == EAGAIN ? .silent : .nobodyListens
    }
    defer { close(socket) }
    let hello = "SET SELF CLIENT_NAME \"announce:announce:check\"\r\n"
    guard send(socket, hello, hello.utf8.count, Int32(MSG_NOSIGNAL)) == hello.utf8.count else {
      return .somethingElse
    }
    let reply = readLine(from: socket, until: deadline)
    switch reply {
    case .silence: return .silent
    case .closed(let bytes) where bytes.isEmpty:
      // A hang-up: no goodbye is owed.
      return .somethingElse
    case .closed(let bytes), .line(let bytes):
      guard isSSIPSuccess(bytes) else { return .somethingElse }
    }
    // Say goodbye as libspeechd does, and wait for the answer within what is left of
    // the bound, so the daemon is not left writing to a closed socket.
    let quit = "QUIT\r\n"
    if send(socket, quit, quit.utf8.count, Int32(MSG_NOSIGNAL)) == quit.utf8.count {
      _ = readLine(from: socket, until: deadline)
    }
    return .speechDispatcher
  }

  /// What came back on a socket.
  private enum Reply {
    /// Bytes up to and including a line feed (or the first 4096 bytes).
    case line([UInt8])
    /// The peer closed the connection after these bytes.
    case closed([UInt8])
    /// Nothing, or no complete line, by the deadline.
    case silence
  }

  /// Reads until a line feed, end of file, or `deadline`.
  private static func readLine(from socket: Int32, until deadline: ContinuousClock.Instant) -> Reply {
    var reply = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 256)
    var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    while !reply.contains(UInt8(ascii: "\n")), reply.count < 4096 {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return .silence }
      let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
      let ready = poll(&entry, 1, Int32(clamping: max(milliseconds, 1)))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return .silence }
      let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
      guard count > 0 else { return .closed(reply) }
      reply += buffer[0..<count]
    }
    return .line(reply)
  }

  /// Whether `reply` starts like an SSIP success line: three digits from 200 to 299 and a space or dash.
  static func isSSIPSuccess(_ reply: [UInt8]) -> Bool {
    guard reply.count >= 4, reply[0] == UInt8(ascii: "2") else { return false }
    let digits = reply[1...2].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    return digits && (reply[3] == UInt8(ascii: " ") || reply[3] == UInt8(ascii: "-"))
  }

  private static func connectedSocket(to address: SpeechdAddress) -> Result<Int32, UnixSocket.Errno> {
    switch address {
    case .unixSocket(let path, _):
      // Non-blocking, so that a full backlog is `EAGAIN` at once rather than a wait for ever.
      return UnixSocket.connect(toPath: path, nonBlocking: true)
    case .inetSocket(let host, let port):
      var hints = addrinfo()
      hints.ai_family = AF_INET
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var results: UnsafeMutablePointer<addrinfo>?
      guard getaddrinfo(host, String(port), &hints, &results) == 0, let first = results else {
        return .failure(UnixSocket.Errno(EHOSTUNREACH))
      }
      defer { freeaddrinfo(results) }
      let socket = Glibc.socket(first.pointee.ai_family, first.pointee.ai_socktype, 0)
      guard socket >= 0 else { return .failure(UnixSocket.Errno(errno)) }
      if connect(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 { return .success(socket) }
      let failure = UnixSocket.Errno(errno)
      close(socket)
      return .failure(failure)
    }
  }
}
