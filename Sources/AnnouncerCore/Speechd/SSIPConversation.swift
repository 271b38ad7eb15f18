import Glibc

/// A speech-dispatcher connection of announce's own, outside libspeechd, for the few
/// commands libspeechd does badly: the greeting that checks a peer before libspeechd is
/// let near it, and the lists of output modules and voices (``SpeechdLists``).
///
/// libspeechd reads every reply one byte per `read(2)`: listing espeak-ng's 13,362 voices
/// (330 KB) made 483,817 system calls and took 0.76 s more than a plain run, where
/// reading the same reply in blocks takes about 0.3 s, all of it the daemon's.
final class SSIPConversation {
  private let socket: Int32
  /// Bytes read past the end of the last reply: the start of the next one.
  private var unread: [UInt8] = []

  /// What came back for a command.
  enum Reply: Equatable {
    /// A whole SSIP reply (its `ddd-` lines and the final `ddd ` line), or the first line
    /// of something that does not continue like SSIP, or the first `limit` bytes.
    case lines([UInt8])
    /// The peer closed the connection after these bytes.
    case closed([UInt8])
    /// Nothing, or no whole reply, by the deadline.
    case silence
  }

  /// Connects to `address`, by `deadline` at the latest: a listener that does not accept,
  /// such as a stopped daemon whose backlog is full, is never waited on for longer.
  static func open(
    _ address: SpeechdAddress, until deadline: ContinuousClock.Instant
  ) -> Result<SSIPConversation, BoundedConnect.Failure> {
    BoundedConnect.connect(to: address, until: deadline).map(SSIPConversation.init(socket:))
  }

  /// Takes a connected stream socket, which the conversation closes; for tests.
  init(socket: Int32) { self.socket = socket }

  deinit { close(socket) }

  /// Sends one command line; `false` when it could not be sent whole.
  func send(_ command: String) -> Bool {
    let line = command + "\r\n"
    return Glibc.send(socket, line, line.utf8.count, Int32(MSG_NOSIGNAL)) == line.utf8.count
  }

  /// Reads one reply, until `deadline`, keeping at most `limit` bytes; the bytes past
  /// them are the start of the next read.
  ///
  /// With `silence`, every arrival of bytes moves the deadline to `silence` after it: a long
  /// reply that keeps coming is read whole, and a peer that stops in the middle of one (a
  /// daemon stopped with SIGSTOP) is given up on `silence` after its last byte.
  func readReply(
    until deadline: ContinuousClock.Instant, limit: Int = 4096, movedOnBy silence: Duration? = nil
  ) -> Reply {
    var deadline = deadline
    var reply = unread
    unread = []
    var lineStart = 0
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    while true {
      // Whole lines so far, within the limit: a `ddd-` line continues the reply; anything
      // else ends it. Bytes kept from the last read may reach past a smaller limit.
      while let end = reply[lineStart..<min(reply.count, limit)].firstIndex(of: UInt8(ascii: "\n")) {
        if !Self.continues(reply[lineStart...end]) {
          unread = Array(reply[(end + 1)...])
          return .lines(Array(reply[...end]))
        }
        lineStart = end + 1
      }
      if reply.count >= limit {
        // The rest is the next read's, as it would be had the limit stopped the reading.
        unread = Array(reply[limit...])
        return .lines(Array(reply[..<limit]))
      }
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return .silence }
      // Rounded up, so that silence is waited for at least as long as asked.
      let ready = poll(&entry, 1, BoundedConnect.milliseconds(roundingUp: left))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return .silence }
      let count = recv(socket, &buffer, min(buffer.count, limit - reply.count), Int32(MSG_DONTWAIT))
      if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
      guard count > 0 else { return .closed(reply) }
      reply += buffer[0..<count]
      if let silence { deadline = max(deadline, .now + silence) }
    }
  }

  /// Says goodbye as libspeechd does and waits for the answer until `deadline`, so the
  /// daemon is not left writing to a closed socket.
  func quit(until deadline: ContinuousClock.Instant) {
    if send("QUIT") { _ = readReply(until: deadline) }
  }

  /// Whether `reply` starts like an SSIP success line: three digits from 200 to 299 and a space or dash.
  static func isSuccess(_ reply: [UInt8]) -> Bool {
    reply.first == UInt8(ascii: "2") && separator(of: reply) != nil
  }

  /// Whether `line` is an SSIP line that more lines of the same reply follow: `ddd-`.
  private static func continues(_ line: ArraySlice<UInt8>) -> Bool {
    separator(of: line) == UInt8(ascii: "-")
  }

  /// What follows an SSIP line's three-digit code: a space ends a reply, a dash continues
  /// it; `nil` when the line does not start like SSIP.
  private static func separator(of line: some Collection<UInt8>) -> UInt8? {
    let head = Array(line.prefix(4))
    guard head.count == 4,
      head[0...2].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      head[3] == UInt8(ascii: " ") || head[3] == UInt8(ascii: "-")
    else { return nil }
    return head[3]
  }
}
