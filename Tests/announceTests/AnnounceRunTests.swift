import AnnouncerCore
import AnnouncerTesting
import Foundation
import Testing

@testable import announce

/// Runs of the command with a scripted speech service and scripted signals: the run, its
/// session, signal handling and replay, with no daemon.
@Suite(.timeLimit(.minutes(1))) struct AnnounceRunTests {
  let service = ScriptedService()
  let signals = ScriptedSignals()

  /// A request that speaks `texts`, quietly, recording its outcomes in `log`.
  func request(_ texts: [String], log: OutcomeLog?) -> AnnounceRequest {
    AnnounceRequest(input: .texts(texts), outcomes: AnnounceRequest.Outcomes(quiet: true, history: log))
  }

  @Test func announcementsHeardToTheEndFinishTheRunWithStatus0AndAreRecorded() async throws {
    try await withTemporaryLog { log in
      let speaking = service.speakEverything()
      let result = await AnnounceRun(request(["Build done", "Tests passed"], log: log), service: service)
        .result()
      #expect(result == .finished(RunSummary()))
      #expect(ExitStatus.of(result) == 0)
      await service.backend.close()
      #expect(await speaking.value == ["Build done", "Tests passed"])
      let outcomes = History(log: log).outcomes
      #expect(outcomes.map(\.event) == ["spoken", "spoken"])
      #expect(outcomes.map(\.text) == ["Build done", "Tests passed"])
    }
  }

  @Test func anAnnouncementOtherSpeechCutsOffWithNoRetryIsNotDelivered() async throws {
    try await withTemporaryLog { log in
      var noRetry = request(["Saved"], log: log)
      noRetry.defaults.retryTimeout = .zero
      let backend = service.backend
      let cutOff = Task {
        for await said in backend.said where said.request.purpose == .announcement {
          backend.emit(.began(said.id))
          backend.emit(.cancelled(said.id))
        }
      }
      let result = await AnnounceRun(noRetry, service: service).result()
      #expect(result == .finished(RunSummary(failureCounts: [.speech(.noRetry): 1])))
      #expect(ExitStatus.of(result) == 1)
      await backend.close()
      await cutOff.value
      let missed = History(log: log).outcomes
      #expect(missed.map(\.event) == ["gave-up"] && missed.first?.reason == "no-retry")
    }
  }

  @Test func aSignalCancelsOurSpeechRecordsItAndEndsTheRunWithItsStatus() async throws {
    try await withTemporaryLog { log in
      let run = AnnounceRun(request(["A long report"], log: log), service: service, signals: signals.process)
      async let result = run.result()
      // Said, and never finished: the signal comes while it is spoken.
      var said = service.backend.said.makeAsyncIterator()
      _ = await said.next()
      await signals.waitUntilArmed()
      await signals.send(.interrupt)
      #expect(await result == .interrupted(.interrupt))
      #expect(ExitStatus.of(await result) == 130)
      #expect(service.backend.cancelCount >= 1)
      let outcomes = History(log: log).outcomes
      #expect(outcomes.map(\.event) == ["gave-up"] && outcomes.first?.reason == "cancelled")
    }
  }

  @Test func invalidSSMLIsBadInputBeforeAnythingConnects() async {
    var ssml = request(["<speak>Unclosed"], log: nil)
    ssml.defaults.isSSML = true
    let result = await AnnounceRun(ssml, service: service).result()
    guard case .failed(.badInput(let sentence)) = result else {
      Issue.record("\(result)")
      return
    }
    #expect(sentence.hasPrefix("Bad input: ") && sentence.hasSuffix("; fix the SSML or leave out --ssml."))
    #expect(ExitStatus.of(result) == 65)
    #expect(service.connectionCount == 0)
  }

  @Test func aServiceThatCannotBeReachedIsUnavailableAndAnAddressThatIsNoneIsAUsageError() async throws {
    let address = try #require(SpeechdAddress.parse("unix_socket:" + UnusedPath.file("speechd.sock")))
    let unreachable = UnreachableService(error: .unreachable(address, detail: "No such file or directory"))
    let result = await AnnounceRun(request(["Saved"], log: nil), service: unreachable).result()
    #expect(
      result
        == .failed(
          .serviceUnavailable(
            SpeechdConnectError.unreachable(address, detail: "No such file or directory").sentence(
              forwardingWith: RunFailure.howToForward))))
    #expect(ExitStatus.of(result) == 69)
    let malformed = UnreachableService(error: .invalidAddress("tcp:x", source: "SPEECHD_ADDRESS"))
    #expect(ExitStatus.of(await AnnounceRun(request(["Saved"], log: nil), service: malformed).result()) == 64)
  }

  @Test func anUnattendedRunWritesTheFailureThatEndsItIntoTheLog() async throws {
    try await withTemporaryLog { log in
      var hook = request(["<speak>Unclosed"], log: log)
      hook.defaults.isSSML = true
      hook.outcomes.unattended = true
      _ = await AnnounceRun(hook, service: service).result()
      let line = try #require(log.lines().last)
      #expect(line.contains("\"event\":\"error\"") && line.contains("\"status\":65"), "\(line)")
    }
  }

  @Test func aReplaySpeaksWhatWasMissedAndRecordsItAsHeard() async throws {
    try await withTemporaryLog { log in
      // A first run in which nothing is heard: other speech cuts it off, with no retry.
      var first = request(["Deploy failed"], log: log)
      first.defaults.retryTimeout = .zero
      first.defaults.voice.rate = 30
      let cutOff = ScriptedService()
      let backend = cutOff.backend
      let cutting = Task {
        for await said in backend.said where said.request.purpose == .announcement {
          backend.emit(.began(said.id))
          backend.emit(.cancelled(said.id))
        }
      }
      _ = await AnnounceRun(first, service: cutOff).result()
      await backend.close()
      await cutting.value
      #expect(History(log: log).toReplay(last: false, isRunning: { _ in false }).count == 1)

      let environment = ["XDG_STATE_HOME": log.path.replacingOccurrences(of: "/announce/log.jsonl", with: "")]
      let speaking = service.speakEverything()
      let replay = try ReplayCommand.parse(["--quiet"])
      let results = await replay.replay(environment: environment, service: service)
      #expect(results == [.finished(RunSummary())])
      #expect(ExitStatus.of(results) == 0)
      await service.backend.close()
      #expect(await speaking.value == ["Deploy failed"])
      let history = History(log: log)
      #expect(history.toReplay(last: false, isRunning: { _ in false }).isEmpty)
      let replayed = try #require(history.outcomes.last)
      #expect(replayed.event == "spoken" && replayed.announcement.voice.rate == 30 && replayed.replays != nil)
    }
  }
}

/// The delivery loop with speech alone: lines in, outcomes and rejections out.
@Suite(.timeLimit(.minutes(1))) struct DeliveryLoopSpeechTests {
  @Test func aJSONLineThatIsNoAnnouncementIsRejectedAndTheOthersAreSpoken() async throws {
    let service = ScriptedService()
    let speaking = service.speakEverything()
    let request = AnnounceRequest(input: .standardInput(.json), outcomes: .init(quiet: true))
    let (announcer, _) = try await service.speaker(for: request, whenTurnsUnavailable: { _ in })
    let loop = DeliveryLoop(
      plan: .speech, channels: [SpeechChannel(announcer: announcer, defaults: request.defaults)], sinks: [],
      terminal: Terminal(quiet: true), defaults: request.defaults)
    let lines = AsyncStream<InputLines.Line> { continuation in
      for (number, text) in [#"{"text":"One"}"#, #"{"text":"Two","rate":500}"#, #"{"text":"Three"}"#]
        .enumerated()
      {
        continuation.yield(InputLines.Line(number: number + 1, text: text))
      }
      continuation.finish()
    }
    let summary = await loop.run(lines, format: .json)
    #expect(summary == RunSummary(rejectedLines: 1))
    #expect(ExitStatus.of(.finished(summary)) == 65)
    await service.backend.close()
    #expect(await speaking.value == ["One", "Three"])
  }
}

/// Runs `body` with an outcome log in a directory of its own, removed afterwards.
func withTemporaryLog(_ body: (OutcomeLog) async throws -> Void) async throws {
  let directory = NSTemporaryDirectory() + "announce-run-test-\(UUID().uuidString)"
  defer { try? FileManager.default.removeItem(atPath: directory) }
  try FileManager.default.createDirectory(atPath: directory + "/announce", withIntermediateDirectories: true)
  try await body(OutcomeLog(path: directory + "/announce/log.jsonl"))
}
