import AnnouncerCore
import Foundation
import Glibc
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// Issue #39: a rotation that cannot write keeps both files, the carry keeps the genuine
/// missed announcements first, replay honours claims and names a log it cannot read.
@Suite(.serialized) struct HistoryRoundSixTests {
  static let stamp = "\"at\":\"2026-11-22T10:15:03.000Z\",\"pid\":1"

  static func missed(_ key: String, reason: String = "interrupted") -> String {
    "{\"event\":\"gave-up\",\"text\":\"Missed \(key)\",\"reason\":\"\(reason)\",\"key\":\"\(key)\",\(stamp)}"
  }

  static func heard(_ key: String) -> String {
    "{\"event\":\"spoken\",\"text\":\"Heard \(key) \(String(repeating: "x", count: 100))\",\"key\":\"\(key)\",\(stamp)}"
  }

  /// Flood control's drops filled the carried 256 KiB and pushed out the genuine ones.
  @Test func theCarryKeepsGenuineMissedAnnouncementsBeforeDroppedOnes() throws {
    let older =
      [Self.missed("genuine-old")] + (1...3_000).map { Self.missed("d\($0)", reason: "dropped") }
      + [Self.missed("genuine-new")]
    let carried = OutcomeLog.carried(older: LogLines(older), current: LogLines())
    let keys = carried.compactMap { HistoryRecord.parse($0)?.key }
    #expect(keys.first == "genuine-old" && keys.contains("genuine-new"), "\(keys.prefix(3))")
    #expect(keys.contains("d3000") && !keys.contains("d1"))
    #expect(carried.reduce(0) { $0 + $1.utf8.count + 1 } <= OutcomeLog.carriedBytes)
    // Those heard since are not carried.
    let replayed = #"{"event":"spoken","text":"x","key":"r","replays":"genuine-old","# + Self.stamp + "}"
    #expect(
      !OutcomeLog.carried(older: LogLines(older), current: LogLines([replayed])).contains {
        $0.contains("genuine-old")
      })
  }

  /// A full disk during a rotation left the current file empty and lost the older one.
  @Test(.enabled(if: geteuid() == 0, "mounting a small tmpfs needs root"))
  func aRotationThatCannotWriteLeavesBothFilesAsTheyWere() throws {
    let directory = NSTemporaryDirectory() + "announce-rotation-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    guard mount("tmpfs", directory, "tmpfs", 0, "size=512k") == 0 else {
      Issue.record("tmpfs could not be mounted: \(String(cString: strerror(errno)))")
      return
    }
    defer { umount(directory) }
    let log = OutcomeLog(path: directory + "/log.jsonl", bound: 100_000)
    let older = (1...1_000).map { Self.missed("m\($0)") }.joined(separator: "\n") + "\n"
    try older.write(toFile: log.olderPath, atomically: false, encoding: .utf8)
    var current = ""
    var index = 0
    while current.utf8.count < 99_800 {
      index += 1
      current += Self.heard("h\(index)") + "\n"
    }
    try current.write(toFile: log.path, atomically: false, encoding: .utf8)
    // What is left of the disk is less than the carried records need.
    let used = older.utf8.count + current.utf8.count
    _ = FileManager.default.createFile(
      atPath: directory + "/filler", contents: Data(count: 512 * 1024 - used - 40 * 1024))
    let failure = log.failure(appending: Self.missed("new"))
    #expect(failure == .system(ENOSPC))
    #expect(try String(contentsOfFile: log.olderPath, encoding: .utf8) == older)
    #expect(try String(contentsOfFile: log.path, encoding: .utf8) == current)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
        "filler", "log.jsonl", "log.jsonl.1", "log.jsonl.lock",
      ])
    #expect(History(log: log).missed.count == 1_000)
  }

  @Test func aFileSizeLimitIsNamedAsOne() {
    let log = OutcomeLog(path: "\(testRoot)/state/announce/log.jsonl")
    let sentence = log.sentence(for: .system(EFBIG))
    #expect(sentence.contains("(File too large)") && sentence.contains("ulimit -f"), "\(sentence)")
    #expect(!sentence.contains("space"))
  }

  /// `replay --last` spoke what another replay had claimed.
  @Test func replayLastLeavesAnAnnouncementAnotherReplayClaimed() throws {
    let claim = History.claimLine(keys: ["a"], pid: getpid())
    let history = History(lines: [Self.missed("a"), claim])
    #expect(history.toReplay(last: true, isRunning: History.isRunning).isEmpty)
    #expect(History(lines: [Self.missed("a")]).toReplay(last: true, isRunning: History.isRunning).count == 1)
    #expect(
      ReplayCommand.nothing(in: history, last: true, now: 0).hasPrefix(
        "The last announcement is being replayed by another announce replay already"))
  }

  /// `replay` on a log it could not read said nothing was announced, and exited 0.
  @Test func replayNamesALogItCannotReadAndFails() async throws {
    let state = NSTemporaryDirectory() + "announce-unreadable-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: state + "/announce", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: state) }
    try FileManager.default.createSymbolicLink(
      atPath: state + "/announce/log.jsonl", withDestinationPath: "/etc/hostname")
    let replay = try ReplayCommand.parse(["--quiet"])
    let results = await replay.replay(environment: ["XDG_STATE_HOME": state, "HOME": UnusedPath.folder()])
    #expect(ExitStatus.of(results) == 1)
    guard case .failed(let failure)? = results.first else {
      Issue.record("\(results)")
      return
    }
    #expect(
      failure.sentence.contains("cannot be read") && failure.sentence.contains("nothing can be replayed"))
  }

  /// `history --missed` said nothing was recorded when the log held error lines.
  @Test func historyOfALogOfErrorLinesSaysSo() {
    let error = #"{"event":"error","text":"speech-dispatcher is gone.","status":69,"# + Self.stamp + "}"
    let history = History(lines: [error, error])
    #expect(history.errorLines == 2 && history.outcomes.isEmpty)
    #expect(
      HistoryCommand.nothing(missed: true, since: nil, anything: false, errorLines: 2, path: "\(testRoot)/l")
        == "No announcement was missed: \(testRoot)/l holds no announcement, only 2 error lines of runs that failed as a whole."
    )
  }

  /// The records of a flood wait in memory, bounded, instead of one per dropped line.
  @Test func aFloodOfDroppedRecordsIsBoundedAndTheNewestAreWritten() throws {
    try withLogInFreshDirectory { log, _ in
      let recorder = HistoryRecorder(log: log, terminal: nil)
      for id in 1...30_000 {
        recorder.queued(Announcement("line \(id)"), as: AnnouncementID(id))
        recorder.record(
          AnnouncerEvent(
            announcement: AnnouncementID(id), text: "line \(id)", attempt: 0, time: .zero,
            kind: .gaveUp(.dropped)))
      }
      recorder.waitUntilWritten()
      let missed = History(log: log).missed
      #expect(missed.last?.text == "line 30000")
      #expect(!missed.isEmpty)
    }
  }
}
