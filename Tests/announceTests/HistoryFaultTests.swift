import Foundation
import Glibc
import Testing

@testable import announce

/// What the crash harness's fault injection (`Tests/Support/history-harness faults`) found
/// in the outcome log's handling of failed system calls.
@Suite struct HistoryFaultTests {
  /// A replay speaks each announcement in a run of its own, each with a writer of its own:
  /// a log that could not be written was said once per announcement (a replay of three said
  /// it three times). It is said once per process.
  @Test func aLogThatCannotBeWrittenIsSaidOnceHoweverManyWritersFailOnIt() async throws {
    let directory = NSTemporaryDirectory() + "announce-fault-test-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    // A file where the log's directory should be: every append fails (ENOTDIR).
    #expect(FileManager.default.createFile(atPath: directory + "/state", contents: Data()))
    let log = OutcomeLog(path: directory + "/state/log.jsonl")
    let said = HistoryLockTests.Count()
    for run in 1...3 {
      let writer = HistoryWriter(log: log, failed: { _ in said.add() })
      writer.write(HistoryLockTests.missed("run\(run)"))
      await writer.finish()
    }
    #expect(said.value == 1)
    // Another log's failure is its own, and said too.
    let other = OutcomeLog(path: directory + "/state/other/log.jsonl")
    let writer = HistoryWriter(log: other, failed: { _ in said.add() })
    writer.write(HistoryLockTests.missed("other"))
    await writer.finish()
    #expect(said.value == 2)
  }

  /// A read that the system stops before the end of the file is told, not taken for the
  /// end: `announce history` listed what it had read and said nothing of the rest.
  @Test func aReadStoppedBeforeTheEndIsTold() throws {
    let directory = NSTemporaryDirectory() + "announce-fault-test-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/log.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: Data("a\nb\n".utf8)))
    let readable = open(path, O_RDONLY | O_CLOEXEC)
    let writeOnly = open(path, O_WRONLY | O_CLOEXEC)
    defer {
      close(readable)
      close(writeOnly)
    }
    let whole = OutcomeLog.wholeLines(reading: readable, from: 0)
    #expect(whole.lines == ["a", "b"] && whole.failure == nil)
    // A descriptor that cannot be read from: read(2) fails with EBADF, as a disk's EIO does.
    #expect(OutcomeLog.wholeLines(reading: writeOnly, from: 0).failure == EBADF)
    #expect(OutcomeLog(path: path).snapshot().failure == nil)
    let sentence = HistoryCommand.unread(path, stoppedBy: EIO)
    #expect(
      sentence
        == "The outcome log \(path) could not be read to its end (Input/output error), so the history cannot be shown; check the disk it is on, then try again."
    )
  }

  /// A replay whose read of the log the system stops chooses nothing: it chose from what
  /// it had read ("the newest 3 of 5 missed", of 295, in the harness's `replay read #1
  /// EIO`), and the records past the failed read may be other replays' claims. It claims
  /// nothing, says so in one line, and a later replay finds every missed one.
  @Test func aReplayWhoseReadOfTheLogFailsClaimsNothingAndSaysSo() throws {
    try withLogInFreshDirectory { log, _ in
      _ = try HistoryCrashTests.fullLog(in: log)
      let before = HistoryCrashTests.missedKeys(log)
      let current = HistoryCrashTests.contents(log.path)
      let claimed = HistoryCrashTests.failing(call: 1, of: log, with: EIO) {
        History.claim(in: log, last: false, limit: 3)
      }
      #expect(throws: History.ClaimFailure.unread(EIO)) { try claimed.get() }
      #expect(HistoryCrashTests.contents(log.path) == current)
      let sentence = ReplayCommand.unclaimed(.unread(EIO), log: log)
      #expect(
        sentence
          == "The outcome log \(log.path) could not be read to its end (Input/output error), so replay could not choose what it would speak, and spoke nothing; check the disk it is on, then try again."
      )
      // Once the disk reads again, the replay claims from the whole log.
      let chosen = try History.claim(in: log, last: false).get().1
      #expect(Set(chosen.compactMap(\.key)) == before)
    }
  }
}
