@testable import AnnouncerCore
import Glibc
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// The command words the core's failures for a person in the locale's language; under
/// the C locale of the tests, each is the core's English word for word, as before.
@Suite struct SpeechdConnectWordsTests {
  static let socket = SpeechdAddress.unixSocket(
    path: "\(testRoot)/run/user/1000/speech-dispatcher/speechd.sock", isUserDefault: true)
  static let chosen = SpeechdAddress.unixSocket(path: "\(testRoot)/tmp/s.sock", isUserDefault: false)
  static let tcp = SpeechdAddress.inetSocket(host: "example.org", port: 6560)
  static let detail =
    "Error: Can't connect to unix socket \(testRoot)/x: No such file or directory. Autospawn: Autospawn failed."

  static let failures: [SpeechdConnectError] = [
    .invalidAddress("bogus", source: "SPEECHD_ADDRESS"),
    .unreachable(socket, detail: detail), .unreachable(chosen, detail: "Connection refused"),
    .unreachable(tcp, detail: detail),
    .notAnswering(chosen, within: .seconds(2)), .notAnswering(tcp, within: .milliseconds(1500)),
    .notAnswering(chosen, within: .seconds(1)),
    .notAccepting(chosen, within: .seconds(2)), .notAccepting(tcp, within: .seconds(2)),
    .forwardHung(path: "\(testRoot)/tmp/f.sock", acceptsConnections: true),
    .forwardHung(path: "\(testRoot)/tmp/f.sock", acceptsConnections: false),
    .staleForward(path: "\(testRoot)/tmp/f.sock", removed: true),
    .staleForward(path: "\(testRoot)/tmp/f.sock", removed: false),
    .nothingForwarded(forwardedPath: "\(testRoot)/tmp/f.sock", local: socket, detail: detail),
    .nameDoesNotResolve(tcp), .lookupTookTooLong(tcp, within: .seconds(2)),
    .lookupTookTooLong(tcp, within: .milliseconds(1500)),
  ]

  @Test(arguments: failures)
  func theCLocalesSentenceIsTheCoresEnglish(failure: SpeechdConnectError) {
    #expect(failure.printedSentence == failure.sentence(forwardingWith: RunFailure.howToForward))
  }

  @Test(arguments: GiveUpReason.allCases)
  func theCLocalesReasonIsTheCoresEnglish(reason: GiveUpReason) {
    #expect(reason.printedCauseAndFix == reason.causeAndFix)
    #expect(reason.printedInAFewWords == reason.inAFewWords)
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
    let unavailable = TurnsUnavailable(directory: "\(testRoot)/run/user/1000/announce", problem: problem)
    #expect(unavailable.printedMessage == unavailable.message)
  }

  static let brailleProblems: [BrailleUnavailable] = [
    .libraryMissing(fileName: "libbrlapi.so.0.8"), .noThread, .noMemory(address: "BrlAPI host :0"),
    .unreachable(address: "BrlAPI host :9", reason: "connection refused"),
    .connectionLost(address: "BrlAPI host :0"), .cannotAttach(address: "BrlAPI host :0", reason: "no tty"),
    .noDisplay(address: "BrlAPI host :0"), .notAnswering(address: "BrlAPI host :0"),
    .lost(address: "BrlAPI host :0"),
  ]

  @Test(arguments: brailleProblems)
  func theCLocalesBrailleSentenceIsTheCoresEnglish(problem: BrailleUnavailable) {
    #expect(problem.printedMessage == problem.message)
  }

  @Test(arguments: [
    VoiceMismatch.noModule("nosuch", modules: ["espeak-ng"]), .noModule("nosuch", modules: ["a", "b", "c"]),
    .noModule("nosuch", modules: ["a", "b"]), .noVoice("Anna", module: "espeak-ng", voiceCount: 12),
    .noLanguage("xx", module: "espeak-ng"),
  ])
  func theCLocalesVoiceSentenceIsTheCoresEnglish(mismatch: VoiceMismatch) {
    #expect(mismatch.printedSentence == mismatch.sentence(howToList: VoiceMismatch.howToList))
  }

  @Test func theCLocalesSSMLPhraseIsTheCoresEnglish() {
    let problems: [SSMLProblem] =
      [
        .tooLarge(bytes: 2_000_000), .noSpeakElement, .wrongRoot("voice"), .nestedTooDeeply, .nameTooLong,
        .entityLoop,
      ]
      + SSMLProblem.Reason.allCases.map { .notWellFormed(line: 3, column: 7, $0) }
    for problem in problems {
      #expect(problem.printedPhrase == problem.phrase)
    }
  }

  /// A JSON line's rejection keeps its English for the JSON event and the log.
  @Test func aRejectedJSONLineKeepsItsEnglish() {
    for line in ["[1]", "{}", "{\"text\": 3}", "{\"text\": \"x\", \"rate\": 500}", "{\"text\":1,\"text\":2}"]
    {
      do throws(LineError) {
        _ = try AnnouncementLine.decode(line)
        Issue.record("\(line) was accepted")
      } catch {
        #expect(error.description == error.english)
        #expect(!error.english.isEmpty)
      }
    }
  }

  @Test func theCLocalesReadProblemAndDetachSentenceAreTodaysEnglish() throws {
    #expect(
      DetachError(code: EAGAIN).description
        == "Could not start the background process for --detach: Resource temporarily unavailable; run announce without --detach."
    )
    let directory = UnusedPath.folder()  // made here, and removed below
    mkdir(directory, 0o700)
    defer {
      unlink(directory + "/log.jsonl")
      rmdir(directory)
    }
    symlink("/dev/null", directory + "/log.jsonl")
    let log = OutcomeLog(path: directory + "/log.jsonl")
    #expect(
      ReplayCommand.unclaimed(.unwritten(.notOwn), log: log)
        == "The outcome log \(directory)/log.jsonl is not a regular file of yours, so replay could not claim what it would speak, and spoke nothing; remove it."
    )
    #expect(
      log.readProblem(for: .replay)
        == "The outcome log \(directory)/log.jsonl cannot be read (Too many levels of symbolic links), so nothing can be replayed; make it and the directories above it yours again, for example with sudo chown -R \"$USER\" ~/.local/state."
    )
  }

  /// Under the C locale, a bash older than 5 is told today's sentence; in any language,
  /// the sentence is one word to bash, with the running bash's version in it.
  @Test func anOldBashIsToldInOneQuotedSentence() throws {
    #expect(
      ShellHook.tooOldBash
        == "'announce: the shell hook needs bash 5 or later; this is bash '\"$BASH_VERSION\"'.'")
  }
}
