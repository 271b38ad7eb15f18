@testable import AnnouncerCore
import Glibc
import Testing

@testable import announce

/// The command words the core's failures for a person in the locale's language; under
/// the C locale of the tests, each is the core's English word for word, as before.
@Suite struct SpeechdConnectWordsTests {
  static let socket = SpeechdAddress.unixSocket(
    path: "/run/user/1000/speech-dispatcher/speechd.sock", isUserDefault: true)
  static let chosen = SpeechdAddress.unixSocket(path: "/tmp/s.sock", isUserDefault: false)
  static let tcp = SpeechdAddress.inetSocket(host: "example.org", port: 6560)
  static let detail =
    "Error: Can't connect to unix socket /x: No such file or directory. Autospawn: Autospawn failed."

  static let failures: [SpeechdConnectError] = [
    .invalidAddress("bogus", source: "SPEECHD_ADDRESS"),
    .unreachable(socket, detail: detail), .unreachable(chosen, detail: "Connection refused"),
    .unreachable(tcp, detail: detail),
    .notAnswering(chosen, within: .seconds(2)), .notAnswering(tcp, within: .milliseconds(1500)),
    .notAnswering(chosen, within: .seconds(1)),
    .notAccepting(chosen, within: .seconds(2)), .notAccepting(tcp, within: .seconds(2)),
    .forwardHung(path: "/tmp/f.sock", acceptsConnections: true),
    .forwardHung(path: "/tmp/f.sock", acceptsConnections: false),
    .staleForward(path: "/tmp/f.sock", removed: true), .staleForward(path: "/tmp/f.sock", removed: false),
    .nothingForwarded(forwardedPath: "/tmp/f.sock", local: socket, detail: detail),
  ]

  @Test(arguments: failures)
  func theCLocalesSentenceIsTheCoresEnglish(failure: SpeechdConnectError) {
    #expect(failure.printedSentence == failure.sentence(forwardingWith: RunFailure.howToForward))
  }

  @Test(arguments: GiveUpReason.allCases)
  func theCLocalesReasonIsTheCoresEnglish(reason: GiveUpReason) {
    #expect(reason.printedCauseAndFix == reason.causeAndFix)
  }

  @Test func theNotDeliveredLineNamesThoseWaitingAfterIt() {
    #expect(
      GiveUpReason.cancelled.notDeliveredLine("a {count}", along: 0)
        == "Not delivered: \"a {count}\": it was cancelled.")
    #expect(
      GiveUpReason.cancelled.notDeliveredLine("a {reason}", along: 1)
        == "Not delivered: \"a {reason}\" and the announcement waiting after it: it was cancelled.")
    #expect(
      GiveUpReason.cancelled.notDeliveredLine("a", along: 3)
        == "Not delivered: \"a\" and the 3 announcements waiting after it: it was cancelled.")
  }

  @Test(arguments: [
    TurnsUnavailable.Problem.cannotMake(errno: EACCES), .notADirectory, .ownedBy(uid: 1001),
    .openToOthers(mode: 0o777),
  ])
  func theCLocalesTurnsSentenceIsTheCoresEnglish(problem: TurnsUnavailable.Problem) {
    let unavailable = TurnsUnavailable(directory: "/run/user/1000/announce", problem: problem)
    #expect(unavailable.printedMessage == unavailable.message)
  }
}
