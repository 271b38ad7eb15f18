import Glibc

@testable import AnnouncerCore

/// What the core reads from speech-dispatcher's replies: ``SSIPConversation`` reading a
/// stream of replies from a socket, and the lists read from a reply (``SSIPListing`` and
/// ``SynthesisVoice/parseList(_:)``).
///
/// The input is what the daemon sends; it is written to one end of a socket pair, which is
/// then closed, and replies are read from the other end until it reports the close.
///
/// - The replies read, and the bytes the close reports, are the input, in order: nothing
///   is lost, repeated or reordered.
/// - A whole reply ends with a line break, and only its last line is not a `ddd-` line;
///   otherwise it is `limit` bytes long.
/// - A list's values and a voice's fields hold no line break, and a voice has a name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSIPReply(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = inputBytes(data, size)
  // A socket pair holds at least 200 KB before a write blocks; the fuzzer's inputs are 4 KB by default.
  guard input.count <= 65_536 else { return 0 }
  var ends: [Int32] = [0, 0]
  guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
    require(false, "a socket pair opens")
    return 0
  }
  let written = input.withUnsafeBytes { send(ends[1], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  close(ends[1])
  require(written == input.count, "the input is sent whole")
  let conversation = SSIPConversation(socket: ends[0])
  // Each read has its own limit, as each of the core's commands has: 4096 bytes, or 64 MB
  // for the voices.
  let limits = [1 + Int(input.first ?? 0) * 16, 4096, 1 + Int(input.last ?? 0) / 4]
  var read: [UInt8] = []
  var replies = 0
  reading: while true {
    let limit = limits[replies % limits.count]
    switch conversation.readReply(until: .now + .seconds(5), limit: limit) {
    case .lines(let reply):
      replies += 1
      require(!reply.isEmpty, "a reply is not empty")
      require(reply.count <= limit, "a reply keeps at most its limit: \(reply.count) of \(limit)")
      if reply.count < limit {
        require(reply.last == UInt8(ascii: "\n"), "a whole reply ends with a line break")
        // Empty lines too: an empty line is no `ddd-` line, so it ends a reply.
        let lines = reply.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        for line in lines.dropLast() {
          require(isContinuation(line), "only the last line of a reply is not a ddd- line")
        }
        if let last = lines.last { require(!isContinuation(last), "a reply's last line ends it") }
      }
      read += reply
      checkLists(reply)
    case .closed(let rest):
      read += rest
      break reading
    case .silence:
      require(false, "a closed socket is never silence")
      break reading
    }
    require(replies <= input.count, "each reply takes at least one byte")
  }
  require(read == input, "the replies are the input, in order")
  return 0
}

func isContinuation(_ line: ArraySlice<UInt8>) -> Bool {
  let head = Array(line.prefix(4))
  return head.count == 4 && head[0...2].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    && head[3] == UInt8(ascii: "-")
}

/// The lists announce reads from a reply hold no line break, and a voice has a name.
func checkLists(_ reply: [UInt8]) {
  for value in SSIPListing.values(in: reply) {
    require(!value.isEmpty && isOneLine(value), "a listed value is one line: \(value.debugDescription)")
  }
  for voice in SynthesisVoice.parseList(String(decoding: reply, as: UTF8.self)) {
    require(!voice.name.isEmpty, "a voice has a name")
    for field in [voice.name, voice.language, voice.variant] {
      require(
        isOneLine(field) && !field.contains("\t"), "a voice's field is one field: \(field.debugDescription)")
    }
  }
}
