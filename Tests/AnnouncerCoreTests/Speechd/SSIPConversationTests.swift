import Foundation
import Glibc
import Testing

@testable import AnnouncerCore
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

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

  /// Found by the fuzz target `ssip-reply` (its seed `smaller-limit`): bytes read past one
  /// reply and kept for the next were returned whole past a smaller limit, or cut at it and
  /// dropped.
  @Test func bytesKeptPastAReplyAreHeldToTheNextLimitAndNoneIsLost() throws {
    let (conversation, peer) = try pair()
    write("208 OK ONE\r\n208 OK TWO\r\n208 OK THREE\r\n249-abcdefgh", to: peer)
    close(peer)
    #expect(conversation.readReply(until: soon) == .lines(Array("208 OK ONE\r\n".utf8)))
    #expect(conversation.readReply(until: soon, limit: 5) == .lines(Array("208 O".utf8)))
    #expect(conversation.readReply(until: soon) == .lines(Array("K TWO\r\n".utf8)))
    #expect(conversation.readReply(until: soon) == .lines(Array("208 OK THREE\r\n".utf8)))
    #expect(conversation.readReply(until: soon, limit: 6) == .lines(Array("249-ab".utf8)))
    #expect(conversation.readReply(until: soon) == .closed(Array("cdefgh".utf8)))
  }

  @Test func successIsATwoHundredCodeFollowedByASpaceOrDash() {
    #expect(SSIPConversation.isSuccess(Array("208 OK CLIENT NAME SET\r\n".utf8)))
    #expect(SSIPConversation.isSuccess(Array("249-Afrikaans\taf\tnone\r\n".utf8)))
    #expect(!SSIPConversation.isSuccess(Array("300 ERR\r\n".utf8)))
    #expect(!SSIPConversation.isSuccess(Array("2x8 OK\r\n".utf8)))
    #expect(!SSIPConversation.isSuccess(Array("208".utf8)))
  }

  @Test func aReplyThatKeepsComingIsReadWholePastItsFirstDeadline() throws {
    let (conversation, peer) = try pair()
    defer { close(peer) }
    // Five parts 100 ms apart: 0.4 s in all, each gap well inside the 0.3 s of silence allowed.
    let writer = Thread {
      for part in 1...5 {
        write("249-Voice \(part)\ten\tnone\r\n", to: peer)
        Thread.sleep(forTimeInterval: 0.1)
      }
      write("249 OK VOICE LIST SENT\r\n", to: peer)
    }
    writer.start()
    let reply = conversation.readReply(until: .now + .milliseconds(300), movedOnBy: .milliseconds(300))
    guard case .lines(let bytes) = reply else {
      Issue.record("the reply was cut short: \(reply)")
      return
    }
    #expect(SynthesisVoice.parseList(String(decoding: bytes, as: UTF8.self)).count == 5)
  }
}

/// Reading speech-dispatcher's lists from a scripted peer that answers, or goes silent.
@Suite struct SSIPListingTests {
  let address = SpeechdAddress.unixSocket(
    path: "\(testRoot)/run/user/7/speech-dispatcher/speechd.sock", isUserDefault: true)

  func listing(silenceBound: Duration) throws -> (SSIPListing, peer: Int32) {
    let (conversation, peer) = try SSIPConversationTests().pair()
    return (SSIPListing(conversation, address: address, silenceBound: silenceBound), peer)
  }

  @Test func aDaemonThatGoesSilentInTheMiddleOfTheVoiceListIsNotAnswering() throws {
    let (listing, peer) = try listing(silenceBound: .milliseconds(300))
    defer { close(peer) }
    // Everything a stopped daemon had sent: the module set, and the list's first lines.
    SSIPConversationTests().write(
      "216 OK OUTPUT_MODULE SET\r\n249-Afrikaans\taf\tnone\r\n249-English (Amer", to: peer)
    let started = ContinuousClock.now
    #expect(throws: SpeechdConnectError.notAnswering(address, within: .milliseconds(300))) {
      try SSIPListing.voices(on: listing, module: "espeak-ng")
    }
    let waited = started.duration(to: .now)
    #expect(waited >= .milliseconds(300) && waited < .seconds(5), "waited \(waited)")
  }

  @Test func aDaemonThatHangsUpInTheMiddleOfTheModuleListIsUnreachable() throws {
    let (listing, peer) = try listing(silenceBound: .seconds(10))
    SSIPConversationTests().write("250-espeak-ng\r\n250-dum", to: peer)
    close(peer)
    #expect(throws: SpeechdConnectError.unreachable(address, detail: "it closed the connection")) {
      try listing.ask("LIST OUTPUT_MODULES")
    }
  }

  @Test func theValuesOfAReplyAreItsContinuedLinesWithoutTheirCode() {
    #expect(
      SSIPListing.values(in: Array("250-espeak-ng\r\n250-dummy\r\n250 OK MODULE LIST SENT\r\n".utf8))
        == ["espeak-ng", "dummy"])
    #expect(SSIPListing.values(in: Array("251-espeak-ng\r\n251 OK GET RETURNED\r\n".utf8)) == ["espeak-ng"])
    #expect(SSIPListing.values(in: Array("300-espeak-ng\r\n300 ERR\r\n".utf8)) == [])
  }

  @Test func thePunctuationLevelIsReadFromItsGetReply() {
    #expect(LibspeechdSettings.punctuation(inReply: "251-some\r\n251 OK GET RETURNED\r\n") == .some)
    #expect(LibspeechdSettings.punctuation(inReply: "251-loud\r\n251 OK GET RETURNED\r\n") == nil)
    #expect(LibspeechdSettings.punctuation(inReply: "300 ERR\r\n") == nil)
  }
}
