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
