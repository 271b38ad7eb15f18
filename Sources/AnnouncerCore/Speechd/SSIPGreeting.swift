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
    /// Something answered, but not in SSIP.
    case somethingElse
  }

  /// How long to wait for the reply.
  static let replyBound: Int32 = 2_000

  /// What listens at `address`, waiting at most `replyBound` milliseconds for each reply.
  static func check(_ address: SpeechdAddress, replyBound: Int32 = replyBound) -> Finding {
    guard let socket = connectedSocket(to: address) else { return .nobodyListens }
    defer { close(socket) }
    let hello = "SET SELF CLIENT_NAME \"announce:announce:check\"\r\n"
    guard send(socket, hello, hello.utf8.count, Int32(MSG_NOSIGNAL)) == hello.utf8.count else {
      return .somethingElse
    }
    let reply = readLine(from: socket, within: replyBound)
    // Silence or a hang-up: no goodbye is owed, and waiting for one would double the time.
    guard !reply.isEmpty else { return .somethingElse }
    // Say goodbye as libspeechd does, and wait for the answer, so the daemon is not
    // left writing to a closed socket.
    let quit = "QUIT\r\n"
    if send(socket, quit, quit.utf8.count, Int32(MSG_NOSIGNAL)) == quit.utf8.count {
      _ = readLine(from: socket, within: replyBound)
    }
    return isSSIPSuccess(reply) ? .speechDispatcher : .somethingElse
  }

  /// Reads until a line feed, end of file, or `bound` milliseconds without data.
  private static func readLine(from socket: Int32, within bound: Int32) -> [UInt8] {
    var reply = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 256)
    var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    while !reply.contains(UInt8(ascii: "\n")), reply.count < 4096 {
      guard poll(&entry, 1, bound) > 0 else { break }
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      reply += buffer[0..<count]
    }
    return reply
  }

  /// Whether `reply` starts like an SSIP success line: three digits from 200 to 299 and a space or dash.
  static func isSSIPSuccess(_ reply: [UInt8]) -> Bool {
    guard reply.count >= 4, reply[0] == UInt8(ascii: "2") else { return false }
    let digits = reply[1...2].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    return digits && (reply[3] == UInt8(ascii: " ") || reply[3] == UInt8(ascii: "-"))
  }

  private static func connectedSocket(to address: SpeechdAddress) -> Int32? {
    switch address {
    case .unixSocket(let path, _):
      return try? UnixSocket.connect(toPath: path).get()
    case .inetSocket(let host, let port):
      var hints = addrinfo()
      hints.ai_family = AF_INET
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var results: UnsafeMutablePointer<addrinfo>?
      guard getaddrinfo(host, String(port), &hints, &results) == 0, let first = results else {
        return nil
      }
      defer { freeaddrinfo(results) }
      let socket = Glibc.socket(first.pointee.ai_family, first.pointee.ai_socktype, 0)
      guard socket >= 0 else { return nil }
      if connect(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 { return socket }
      close(socket)
      return nil
    }
  }
}
