import AnnouncerCore
import Foundation
import Glibc
import Synchronization
import Testing

@testable import announce
import AnnouncerTesting

/// The log keeps what the history shows: through floods of rejected or giant input,
/// under contention, and it names a full disk or another user's directory as they are.
@Suite(.serialized) struct HistoryKeepingTests {
  func withLog(bound: Int = OutcomeLog.defaultBound, _ body: (OutcomeLog) throws -> Void) throws {
    let directory = NSTemporaryDirectory() + "announce-keeping-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try body(OutcomeLog(path: directory + "/state/log.jsonl", bound: bound))
  }

  static let stamp = "\"at\":\"2026-11-22T10:15:03.000Z\",\"pid\":1"

  func missed(_ key: String) -> String {
    "{\"event\":\"gave-up\",\"text\":\"Missed \(key)\",\"reason\":\"stalled\",\"key\":\"\(key)\",\(Self.stamp)}"
  }

  @Test func aFloodOfRejectedLinesWritesNothing() throws {
    try withLog { log in
      #expect(log.append(missed("m")))
      let recorder = HistoryRecorder(log: log, terminal: nil)
      for line in 1...20_000 {
        recorder.rejected(line: line, input: "INFO served", reason: "not JSON", time: .zero)
      }
      recorder.waitUntilWritten()
      #expect(History(log: log).records.count == 1)
    }
  }

  @Test func aGiantTextIsKeptAsItsStart() throws {
    let recorder = HistoryRecorder(log: OutcomeLog(path: UnusedPath.file("log.jsonl")), terminal: nil)
    let text = String(repeating: "word ", count: 300_000)
    let event = AnnouncerEvent(
      announcement: AnnouncementID(1), text: "word", attempt: 1, time: .seconds(1), kind: .gaveUp(.noRetry))
    let line = recorder.recordLine(for: SpeechReport(event), queued: Announcement(text), at: Date(), pid: 1)
    #expect(line.utf8.count < 2 * OutcomeLog.maxTextBytes, "\(line.utf8.count) bytes")
    let record = try #require(HistoryRecord.parse(line))
    let kept = try #require(record.text)
    #expect(
      kept.hasPrefix("word word") && kept.hasSuffix("word…") && kept.utf8.count <= OutcomeLog.maxTextBytes)
    let ssml = OutcomeLog.bounded(Announcement("<speak>" + text + "</speak>", isSSML: true))
    #expect(!ssml.isSSML && ssml.text.hasPrefix("word word"))
  }

  /// The history held 5 missed announcements; 20,000 rejected lines pushed them out.
  @Test func theLastThousandOutcomesAndEveryMissedOneSurviveAFloodOfTheLongestRecords() throws {
    try withLog { log in
      for index in 1...5 { #expect(log.append(missed("m\(index)"))) }
      // Each text as long as a record keeps, and twice as long in JSON: 2 KiB a record.
      let long = String(repeating: "\\\"", count: OutcomeLog.maxTextBytes)
      for index in 1...8_000 {
        #expect(log.append("{\"event\":\"spoken\",\"text\":\"\(long)\",\"key\":\"h\(index)\",\(Self.stamp)}"))
      }
      let history = History(log: log)
      #expect(history.outcomes.count >= 1_000 + 5, "\(history.outcomes.count)")
      #expect(history.missed.compactMap(\.key) == ["m1", "m2", "m3", "m4", "m5"])
      #expect(history.outcomes.last?.key == "h8000")
    }
  }

  /// Ten replays read the whole log under its lock, and writers gave up after a second.
  @Test func writersAndReplaysAtOnceLoseNothing() throws {
    try withLog { log in
      let filler = String(repeating: "x", count: 900)
      for index in 1...2_500 {
        _ = log.append("{\"event\":\"spoken\",\"text\":\"\(filler)\",\"key\":\"f\(index)\",\(Self.stamp)}")
      }
      for index in 1...10 { _ = log.append(missed("m\(index)")) }
      let lost = Atomic(0)
      let claimed = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 20) { worker in
        if worker < 10 {
          if let (_, chosen) = try? History.claim(in: log, last: false, limit: 1).get() {
            claimed.withLock { $0 += chosen.compactMap(\.key) }
          } else {
            lost.add(1, ordering: .relaxed)
          }
        } else {
          for index in 1...20 where !log.append(missed("w\(worker)-\(index)")) {
            lost.add(1, ordering: .relaxed)
          }
        }
      }
      #expect(lost.load(ordering: .relaxed) == 0)
      let keys = claimed.withLock { $0 }
      #expect(Set(keys).count == keys.count, "a key was claimed twice: \(keys)")
    }
  }

  /// A full disk was reported as a busy lock.
  @Test(.enabled(if: geteuid() == 0, "mounting a small tmpfs needs root"))
  func aFullDiskIsNamedAsOne() throws {
    let directory = NSTemporaryDirectory() + "announce-full-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    guard mount("tmpfs", directory, "tmpfs", 0, "size=64k") == 0 else {
      Issue.record("tmpfs could not be mounted: \(String(cString: strerror(errno)))")
      return
    }
    defer { umount(directory) }
    let log = OutcomeLog(path: directory + "/state/log.jsonl")
    #expect(log.append(missed("a")))
    _ = FileManager.default.createFile(atPath: directory + "/filler", contents: Data(count: 1 << 20))
    var failure: OutcomeLog.WriteFailure?
    for index in 1...200 {
      failure = log.failure(appending: missed("b\(index)") + String(repeating: " ", count: 4000))
      if failure != nil { break }
    }
    let found = try #require(failure)
    #expect(found == .system(ENOSPC))
    let sentence = log.sentence(for: found)
    #expect(sentence.contains("cannot be written (No space left on device)"), "\(sentence)")
    #expect(History(log: log).missed.first?.key == "a")
  }

  /// root with a user's HOME made `~/.local` root's, mode 0700.
  @Test(.enabled(if: geteuid() == 0, "a directory of another user's needs root to make"))
  func stateIsNeverMadeInAnotherUsersDirectory() throws {
    let home = NSTemporaryDirectory() + "announce-other-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    #expect(chown(home, 65_534, 65_534) == 0)
    let log = OutcomeLog.forUser(environment: ["HOME": home])
    #expect(log.failure(appending: missed("a")) != nil)
    #expect(!FileManager.default.fileExists(atPath: home + "/.local"))
    let problem = try #require(log.problem())
    #expect(problem.contains("\(home), which belongs to another user"), "\(problem)")
    #expect(!FileManager.default.fileExists(atPath: home + "/.local"))
  }
}
