@testable import AnnouncerCore
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// A value the user gave, quoted in a sentence, keeps the sentence one line: a line break
/// in it is written as its escape, in the sentence printed and in the English that `--json`
/// and the outcome log keep (the fuzz targets `address` and `json-line` found both).
@Suite struct OneLineValueTests {
  static let breaks = ["\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]

  static func isOneLine(_ text: String) -> Bool {
    !text.unicodeScalars.contains { breaks.joined().unicodeScalars.contains($0) }
  }

  /// An address that is none, with a vertical tab and a line break in it: the fuzz target
  /// `address` found the first (its seed `vertical-tab`).
  @Test func anAddressThatIsNoneIsQuotedOnOneLine() {
    let refusal = SpeechdConnectError.invalidAddress("unix_sock\u{0B}et\nx", source: "SPEECHD_ADDRESS")
    let sentence =
      "SPEECHD_ADDRESS \"unix_sock\\u000bet\\nx\" is not a speech-dispatcher address; use unix_socket:PATH or inet_socket:HOST:PORT."
    #expect(refusal.description == sentence)
    #expect(refusal.printedSentence == sentence)
  }

  /// A socket path or a host with a break in it is an address, and every sentence that
  /// names it writes the break as its escape.
  @Test func everySentenceAboutAnAddressWithABreakInItIsOneLine() throws {
    for text in Self.breaks {
      let socket = try #require(SpeechdAddress.parse("unix_socket:\(testRoot)/a\(text)b.sock"))
      let host = try #require(SpeechdAddress.parse("inet_socket:a\(text)b:6560"))
      for address in [socket, host] {
        let failures: [SpeechdConnectError] = [
          .unreachable(address, detail: "Error: Can't connect to unix socket: No such file or directory."),
          .notAnswering(address, within: .seconds(2)), .notAccepting(address, within: .milliseconds(1500)),
          .nameDoesNotResolve(address), .lookupTookTooLong(address, within: .seconds(2)),
          .nothingForwarded(forwardedPath: "\(testRoot)/f\(text).sock", local: address, detail: "refused"),
          .staleForward(path: "\(testRoot)/f\(text).sock", removed: true),
          .forwardHung(path: "\(testRoot)/f\(text).sock", acceptsConnections: false),
        ]
        let sentences =
          failures.flatMap { [$0.description, $0.printedSentence] } + [
            address.description, AddressCheck.printed(address),
          ]
        for sentence in sentences {
          #expect(Self.isOneLine(sentence), "\(sentence.debugDescription)")
        }
      }
    }
    #expect(
      SpeechdAddress.unixSocket(path: "\(testRoot)/a\nb\r\u{2028}", isUserDefault: false).description
        == "the unix socket \(testRoot)/a\\nb\\r\\u2028")
  }

  /// A key with a carriage return, in a rejected line's reason: the fuzz target `json-line`
  /// found it (its seed `key-with-return`).
  @Test func aKeyWithABreakIsQuotedEscapedInTheReason() throws {
    let lone = try #require(JSONLineCheck.problem(in: "{\"te\\rxt\":\"\\ude00\"}"))
    #expect(
      lone.description
        == "the \"te\\rxt\" field has \\ude00, half of a UTF-16 surrogate pair, which is no character; write the character itself, or both halves of its pair"
    )
    let twice = try #require(JSONLineCheck.problem(in: "{\"a\u{2028}\":1,\"a\\u2028\":2}"))
    #expect(
      twice.description == "it has the key \"a\\u2028\" twice, so its value is ambiguous; give each key once")
    for problem in [lone, twice] {
      #expect(Self.isOneLine(problem.description) && Self.isOneLine(problem.english))
    }
  }

  /// A value quoted in a reason is written as JSON writes it, and cut short by characters
  /// without cutting an escape in two.
  @Test func aValueInAReasonIsQuotedAsJSONWritesIt() throws {
    #expect(JSONValue.quoted("say \"hi\"\\\r\n") == "\"say \\\"hi\\\"\\\\\\r\\n\"")
    let long = String(repeating: "\n", count: 100)
    #expect(JSONValue.quoted(long) == "\"" + String(repeating: "\\n", count: 19) + "…\"")
    do throws(LineError) {
      _ = try AnnouncementLine.decode("{\"text\": \"x\", \"voice\": \"a\\rb\"}")
      Issue.record("a voice with a carriage return was accepted")
    } catch {
      #expect(Self.isOneLine(error.description) && error.description.contains("\"a\\rb\""))
    }
  }
}
