import AnnouncerCore
import ArgumentParser
import Foundation
import Testing

@testable import announce

/// `--when-done`: its parsing and validation, and the process it holds, in process.
@Suite struct WhenDoneTests {
  func parse(_ arguments: [String]) throws -> AnnounceRequest {
    try Announce.parse(arguments).request(environment: [:])
  }

  /// The one-line message of the usage error that `arguments` give.
  func usageError(_ arguments: [String]) -> String? {
    do {
      _ = try parse(arguments)
      return nil
    } catch {
      #expect(Announce.exitCode(for: error).rawValue == 64)
      return Announce.message(for: error)
    }
  }

  @Test func withoutTextItSpeaksItsOwnSentenceAndNeverReadsStandardInput() throws {
    let command = try parse(["--when-done", "1234"])
    #expect(command.whenDone == AnnounceRequest.WhenDone(pid: 1234))
    #expect(!command.readsStandardInput)
    #expect(try parse(["--when-done", "1234", "Saved"]).texts == ["Saved"])
    #expect(try parse(["--when-done", "1234", "--ssml", "<speak>Saved</speak>"]).defaults.isSSML)
  }

  @Test(arguments: ["0", "-5", "4194305"])
  func aNumberThatIsNoProcessIDIsAUsageError(value: String) {
    #expect(
      usageError(["--when-done", value])
        == "--when-done must be a process ID, a whole number from 1 to 4194304, not \(value).")
  }

  @Test(arguments: [
    (["-"], "never standard input"), (["--input", "json"], "never standard input"),
    (["--ssml"], "leave out --ssml"), (["--list-voices"], "leave out --when-done"),
  ])
  func standardInputSSMLOfItsOwnAndListingAreUsageErrors(arguments: [String], saying: String) {
    let message = usageError(["--when-done", "1234"] + arguments)
    #expect(message?.contains(saying) == true, "\(message ?? "accepted")")
  }

  @Test func aMissingProcessIsAUsageErrorInOneSentence() throws {
    let pid = try #require(
      Int32(
        try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8).trimmingCharacters(
          in: .whitespacesAndNewlines)))
    #expect {
      _ = try WatchedProcess.open(pid)
    } throws: { error in
      error as? RunFailure == .usage("There is no process \(pid); find the right ID with pgrep or ps.")
    }
  }

  @Test func aRunningProcessIsHeldWithItsNameAndStartAndItsEndIsReported() async throws {
    let sleeper = Process()
    sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
    sleeper.arguments = ["60"]
    try sleeper.run()
    let process = try WatchedProcess.open(sleeper.processIdentifier)
    #expect(process.name == "sleep")
    let started = try #require(process.started)
    // It started a moment ago, on the same clock.
    #expect(WatchedProcess.now() - started < .seconds(10))
    #expect(WatchedProcess.now() >= started)
    #expect(
      process.sentence(endedAt: started + .seconds(65))
        == "Process \(sleeper.processIdentifier), sleep, finished after 1 minute 5 seconds.")
    let ended: Duration = await withCheckedContinuation { continuation in
      #expect(process.onEnd { continuation.resume(returning: $0) })
      kill(sleeper.processIdentifier, SIGKILL)
    }
    #expect(ended >= started)
  }
}

/// A speech service whose connection waits until the test lets it through, as a slow
/// daemon's does, so that a test can act between the end of a wait and the speech.
final class GatedService: SpeechService {
  let inner = ScriptedService()
  private let asked: AsyncStream<Void>
  private let askedSink: AsyncStream<Void>.Continuation
  private let gate: AsyncStream<Void>
  private let gateSink: AsyncStream<Void>.Continuation

  init() {
    (asked, askedSink) = AsyncStream.makeStream(of: Void.self)
    (gate, gateSink) = AsyncStream.makeStream(of: Void.self)
  }

  func speaker(
    for request: AnnounceRequest, whenTurnsUnavailable: (TurnsUnavailable) -> Void
  ) async throws(SpeechdConnectError) -> (announcer: Announcer, voices: (any VoiceListing)?) {
    askedSink.yield()
    var waiting = gate.makeAsyncIterator()
    _ = await waiting.next()
    return try await inner.speaker(for: request, whenTurnsUnavailable: whenTurnsUnavailable)
  }

  /// Returns once a run has asked for a connection.
  func waitUntilAsked() async {
    var iterator = asked.makeAsyncIterator()
    _ = await iterator.next()
  }

  /// Lets the connection through.
  func open() { gateSink.finish() }
}

/// Issue #39 item 10: a signal between the end of the wait and the start of the speech.
@Suite(.timeLimit(.minutes(1))) struct WhenDoneSignalTests {
  /// The wait's trap was disarmed when the process ended, and the speech armed its own
  /// only once connected: a SIGTERM in between was lost, and the announcement spoken
  /// with status 0. It ends the run with its status, as during the wait or the speech.
  @Test func aSignalAfterTheProcessEndedAndBeforeTheSpeechEndsTheRunWithItsStatus() async throws {
    let sleeper = Process()
    sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
    sleeper.arguments = ["60"]
    try sleeper.run()
    let service = GatedService()
    let speaking = service.inner.speakEverything()
    let signals = ScriptedSignals()
    let request = try Announce.parse(["--quiet", "--when-done", "\(sleeper.processIdentifier)", "Saved"])
      .request(environment: ["ANNOUNCE_HISTORY": "off"])
    let run = AnnounceRun(request, service: service, signals: signals.process)
    async let result = run.result()
    await signals.waitUntilArmed()
    kill(sleeper.processIdentifier, SIGKILL)
    // The process has ended, and the announcement's run is connecting.
    await service.waitUntilAsked()
    await signals.send(.terminate)
    service.open()
    #expect(await result == .interrupted(.terminate))
    #expect(ExitStatus.of(await result) == 143)
    speaking.cancel()
  }
}
