import Foundation
import Glibc
import Testing

@testable import AnnouncerCore

/// Reading SSIP replies in blocks, on a socket pair whose other end the test writes.
@Suite struct SSIPConversationTests {
  /// A conversation on one end of a socket pair, and the other end for the test.
  func pair() throws -> (SSIPConversation, peer: Int32) {
    var ends: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EIO) }
    return (SSIPConversation(socket: ends[0]), ends[1])
  }

  func write(_ text: String, to socket: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes { Glibc.write(socket, $0.baseAddress, $0.count) }
      guard sent > 0 else { return }
      bytes = bytes.dropFirst(sent)
    }
  }

  var soon: ContinuousClock.Instant { .now + .seconds(10) }

  @Test func aVoiceListLargerThanOneReadIsReadWholeAndNoFurther() throws {
    let (conversation, peer) = try pair()
    defer { close(peer) }
    let count = 20_000
    let lines = (1...count).map { "249-Voice \($0)\ten-\($0 % 7)\tnone\r\n" }.joined()
    // Over 500 KB: more than the socket holds and than one read takes, so lines are split
    // between reads; a writer thread feeds it while the conversation reads.
    let writer = Thread { write(lines + "249 OK VOICE LIST SENT\r\n" + "208 OK NEXT REPLY\r\n", to: peer) }
    writer.start()
    guard case .lines(let reply) = conversation.readReply(until: soon, limit: 64 << 20) else {
      Issue.record("no whole reply")
      return
    }
    let text = String(decoding: reply, as: UTF8.self)
    #expect(text.hasSuffix("249 OK VOICE LIST SENT\r\n"))
    let voices = SynthesisVoice.parseList(text)
    #expect(voices.count == count)
    #expect(
      voices.last == SynthesisVoice(name: "Voice \(count)", language: "en-\(count % 7)", variant: "none"))
    guard case .lines(let next) = conversation.readReply(until: soon) else {
      Issue.record("the next reply was lost")
      return
    }
    #expect(String(decoding: next, as: UTF8.self) == "208 OK NEXT REPLY\r\n")
  }

  @Test func somethingThatIsNotSSIPEndsAtItsFirstLine() throws {
    let (conversation, peer) = try pair()
    defer { close(peer) }
    write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", to: peer)
    #expect(conversation.readReply(until: soon) == .lines(Array("HTTP/1.1 400 Bad Request\r\n".utf8)))
    #expect(!SSIPConversation.isSuccess(Array("HTTP/1.1 400 Bad Request\r\n".utf8)))
  }

  @Test func aHangUpAndSilenceAreToldApart() throws {
    let (conversation, peer) = try pair()
    #expect(conversation.readReply(until: .now) == .silence)
    write("249-half a rep", to: peer)
    close(peer)
    #expect(conversation.readReply(until: soon) == .closed(Array("249-half a rep".utf8)))
  }

  @Test func aReplyIsCutAtTheLimit() throws {
    let (conversation, peer) = try pair()
    defer { close(peer) }
    write(String(repeating: "249-x\r\n", count: 100), to: peer)
    #expect(
      conversation.readReply(until: soon, limit: 20)
        == .lines(Array(String(repeating: "249-x\r\n", count: 3).utf8.prefix(20))))
  }

  @Test func successIsATwoHundredCodeFollowedByASpaceOrDash() {
    #expect(SSIPConversation.isSuccess(Array("208 OK CLIENT NAME SET\r\n".utf8)))
    #expect(SSIPConversation.isSuccess(Array("249-Afrikaans\taf\tnone\r\n".utf8)))
    #expect(!SSIPConversation.isSuccess(Array("300 ERR\r\n".utf8)))
    #expect(!SSIPConversation.isSuccess(Array("2x8 OK\r\n".utf8)))
    #expect(!SSIPConversation.isSuccess(Array("208".utf8)))
  }
}
