import AnnouncerCore
import Testing

@testable import announce
import AnnouncerTesting

/// Issue 32 items 1 and 4 without a daemon: texts that never reached speech-dispatcher are
/// recorded as missed, and a replay whose recorded module is gone speaks with the default.
@Suite(.timeLimit(.minutes(1))) struct UnheardRecordTests {
  func request(_ texts: [String], log: OutcomeLog?) -> AnnounceRequest {
    AnnounceRequest(input: .texts(texts), outcomes: AnnounceRequest.Outcomes(quiet: true, history: log))
  }

  func unreachable() throws -> UnreachableService {
    let address = try #require(SpeechdAddress.parse("unix_socket:" + UnusedPath.file("speechd.sock")))
    return UnreachableService(error: .unreachable(address, detail: "No such file or directory"))
  }

  @Test func textsThatCouldNotConnectAreRecordedAsMissedWithTheirSettings() async throws {
    try await withTemporaryLog { log in
      var failing = request(["Build failed", "  "], log: log)
      failing.defaults.voice.rate = 40
      let result = await AnnounceRun(failing, service: try unreachable()).result()
      #expect(ExitStatus.of(result) == 69)
      let missed = History(log: log).toReplay(last: false, isRunning: { _ in false })
      // The blank one would not have been spoken, so it is not recorded either.
      #expect(missed.map(\.text) == ["Build failed"])
      #expect(
        missed.allSatisfy { $0.reason == "unreachable" && $0.announcement.voice.rate == 40 && $0.key != nil })

      let service = ScriptedService()
      let speaking = service.speakEverything()
      let environment = ["XDG_STATE_HOME": log.path.replacingOccurrences(of: "/announce/log.jsonl", with: "")]
      let results = await (try ReplayCommand.parse(["--quiet"])).replay(
        environment: environment, service: service)
      #expect(ExitStatus.of(results) == 0)
      await service.backend.close()
      #expect(await speaking.value == ["Build failed"])
      #expect(History(log: log).toReplay(last: false, isRunning: { _ in false }).isEmpty)
    }
  }

  @Test func theNewReasonSaysTheServiceIsUnavailableInAFewWords() {
    #expect(GiveUpReason.unreachable.meansServiceUnavailable)
    #expect(GiveUpReason.unreachable.inAFewWords == "speech-dispatcher unreachable")
  }
}
