import AnnouncerCore
import Foundation
import Glibc
import PropertyTesting
import Synchronization
import Testing

@testable import announce

/// Issue #47: a rotation that fails or is killed half way loses no missed announcement,
/// leaves nothing behind for good, and carries exactly what the reader calls missed.
@Suite(.serialized, .timeLimit(.minutes(1))) struct HistoryCrashTests {
  static let stamp = "\"at\":\"2026-11-22T10:15:03.000Z\",\"pid\":1"

  static func missed(_ key: String) -> String {
    "{\"event\":\"gave-up\",\"text\":\"Missed \(key)\",\"reason\":\"interrupted\",\"key\":\"\(key)\",\(stamp)}"
  }

  static func heard(_ key: String, replays: String? = nil) -> String {
    let replayed = replays.map { ",\"replays\":\"\($0)\"" } ?? ""
    return "{\"event\":\"spoken\",\"text\":\"Heard \(key)\",\"key\":\"\(key)\"\(replayed),\(stamp)}"
  }

  /// The keys of the announcements `log` lists as missed.
  static func missedKeys(_ log: OutcomeLog) -> Set<String> {
    Set(History(log: log).missed.compactMap(\.key))
  }

  /// Writes `lines` to `path`, one a line.
  static func write(_ lines: [String], to path: String) throws {
    try (lines.map { $0 + "\n" }.joined()).write(toFile: path, atomically: false, encoding: .utf8)
  }

  static func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

  /// The names in the log's directory.
  static func names(_ log: OutcomeLog) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: log.directory)) ?? []).sorted()
  }

  /// A log whose older file holds 300 missed announcements and whose current file is full
  /// of heard ones, and a writer whose next line rotates it.
  static func fullLog(in log: OutcomeLog) throws -> OutcomeLog {
    try write((1...300).map { missed("m\($0)") }, to: log.olderPath)
    try write((1...200).map { heard("h\($0)") }, to: log.path)
    let size = contents(log.path)?.utf8.count ?? 0
    return OutcomeLog(path: log.path, bound: size + 1, lockTimeout: log.lockTimeout)
  }

  /// Makes the `failing`th call of a rotation of `log` that renames or links a file fail
  /// with `code` while `body` runs.
  static func failing<Value>(
    call failing: Int, of log: OutcomeLog, with code: Int32, _ body: () throws -> Value
  ) rethrows -> Value {
    let calls = Mutex(0)
    let folder = String(log.path[..<(log.path.lastIndex(of: "/") ?? log.path.endIndex)])
    OutcomeLog.injectedFaults.withLock { faults in
      faults[folder] = { _ in
        let call = calls.withLock { calls in
          calls += 1
          return calls
        }
        return call == failing ? code : nil
      }
    }
    defer { _ = OutcomeLog.injectedFaults.withLock { $0.removeValue(forKey: folder) } }
    return try body()
  }

  static let failingCalls = [1, 2, 3]

  /// Before, when the rename of the new file failed, the older file had been replaced
  /// already, the new file with its carried records was removed, and the line went into a
  /// fresh, empty file: 299 missed announcements were gone, and nothing was said.
  @Test(arguments: failingCalls)
  func aRotationWhoseRenameFailsLeavesBothFilesAsTheyWereAndSaysSo(call: Int) throws {
    try withLogInFreshDirectory { log, _ in
      let writer = try Self.fullLog(in: log)
      let older = Self.contents(log.olderPath)
      let current = Self.contents(log.path)
      let before = Self.missedKeys(log)
      let failure = Self.failing(call: call, of: log, with: EIO) {
        writer.failure(appending: Self.missed("new"))
      }
      #expect(failure == .system(EIO))
      #expect(Self.contents(log.olderPath) == older)
      #expect(Self.contents(log.path) == current)
      #expect(Self.missedKeys(log) == before)
      #expect(Self.names(log) == ["log.jsonl", "log.jsonl.1", "log.jsonl.lock"])
      if let failure {
        let sentence = writer.sentence(for: failure)
        #expect(sentence.contains("Input/output error") && !sentence.contains("\n"), "\(sentence)")
      }
      // The next line rotates as usual.
      #expect(writer.failure(appending: Self.missed("later")) == nil)
      #expect(Self.missedKeys(log) == before.union(["later"]))
    }
  }

  /// A rotation killed after it put the new file in place and before it replaced the older
  /// file leaves the current file's link under `log.jsonl.rotating`: the next reader or
  /// writer finishes the rotation, and nothing is lost or listed twice.
  @Test func aRotationKilledBetweenItsRenamesIsFinishedByTheNextReader() throws {
    try withLogInFreshDirectory { log, _ in
      _ = try Self.fullLog(in: log)
      let current = Self.contents(log.path)
      let before = Self.missedKeys(log)
      // The state a kill there leaves: the old current file at the rotating name, and the
      // new file (the carried records and the new line) in its place.
      #expect(link(log.path, log.path + ".rotating") == 0)
      let carried = OutcomeLog.carried(older: LogLines.read(log.olderPath), current: LogLines.read(log.path))
      try Self.write(carried + [Self.missed("new")], to: log.path + ".next")
      #expect(rename(log.path + ".next", log.path) == 0)
      #expect(Self.missedKeys(log) == before.union(["new"]))
      #expect(Self.contents(log.olderPath) == current)
      #expect(Self.names(log) == ["log.jsonl", "log.jsonl.1", "log.jsonl.lock"])
    }
  }

  /// Killed after it made the link and before the new file went in: the link goes, and
  /// both files stay as they were.
  @Test func aRotationKilledBeforeTheNewFileWentInChangesNothing() throws {
    try withLogInFreshDirectory { log, _ in
      _ = try Self.fullLog(in: log)
      let older = Self.contents(log.olderPath)
      let current = Self.contents(log.path)
      #expect(link(log.path, log.path + ".rotating") == 0)
      let before = Self.missedKeys(log)
      #expect(before.count == 300)
      #expect(Self.contents(log.olderPath) == older && Self.contents(log.path) == current)
      #expect(Self.names(log) == ["log.jsonl", "log.jsonl.1", "log.jsonl.lock"])
    }
  }

  /// Before, a rotation killed while it wrote its new file left `log.jsonl.PID-N.new` for
  /// good. A later rotation removes such a file, but not one that a live writer holds.
  @Test func aLaterRotationRemovesATemporaryFileNoLiveWriterHolds() throws {
    try withLogInFreshDirectory { log, _ in
      let writer = try Self.fullLog(in: log)
      let stale = log.path + ".\(Int32.max)-1.new"
      try Self.write([Self.missed("m1")], to: stale)
      // A writer that is still writing its new file holds a lock on it.
      let live = log.path + ".\(getpid())-999999.new"
      let held = open(live, O_WRONLY | O_CREAT | O_EXCL, 0o600)
      #expect(held >= 0 && flock(held, LOCK_EX) == 0)
      defer { close(held) }
      #expect(writer.failure(appending: Self.missed("new")) == nil)
      let names = Self.names(log)
      #expect(!names.contains { stale.hasSuffix($0) })
      #expect(names.contains { live.hasSuffix($0) })
      #expect(Self.missedKeys(log).count == 301)
      unlink(live)
    }
  }

  /// A replay heard while a rotation read the files without the lock: before, the rotation
  /// carried the announcement anyway, and once the replay's record rotated out, the carried
  /// copy was missed again and the next replay spoke it a second time.
  @Test func aReplayHeardWhileARotationReadsIsNotCarried() throws {
    try withLogInFreshDirectory { log, _ in
      let writer = try Self.fullLog(in: log)
      let other = OutcomeLog(path: log.path)
      let heard = Mutex(false)
      try HistoryLockTests.atUnlockedSteps(of: log) { step in
        guard step == .parsed, !heard.withLock({ $0 }) else { return }
        heard.withLock { $0 = true }
        #expect(other.failure(appending: Self.heard("r1", replays: "m7")) == nil)
      } _: {
        #expect(writer.failure(appending: Self.missed("new")) == nil)
      }
      #expect(heard.withLock { $0 })
      #expect(!Self.missedKeys(log).contains("m7"))
      // The next rotation pushes the replay's record out of both files.
      let size = Self.contents(log.path)?.utf8.count ?? 0
      #expect(OutcomeLog(path: log.path, bound: size + 1).failure(appending: Self.missed("next")) == nil)
      let keys = Self.missedKeys(log)
      #expect(!keys.contains("m7") && keys.contains("m8") && keys.contains("next"), "\(keys.sorted())")
    }
  }

  /// Before, a rotation noted only the current file's heard replays: one missed in the
  /// older file and heard on a replay there was carried, and missed again.
  @Test func aReplayHeardInTheOlderFileIsNotCarried() throws {
    try withLogInFreshDirectory { log, _ in
      try Self.write([Self.missed("a"), Self.heard("r", replays: "a"), Self.missed("b")], to: log.olderPath)
      try Self.write((1...5).map { Self.heard("h\($0)") }, to: log.path)
      let size = Self.contents(log.path)?.utf8.count ?? 0
      #expect(Self.missedKeys(log) == ["b"])
      #expect(OutcomeLog(path: log.path, bound: size + 1).failure(appending: Self.missed("c")) == nil)
      #expect(Self.missedKeys(log) == ["b", "c"])
    }
  }

  /// Python's `json.dumps` writes a space after each colon and comma. Before, the history
  /// listed such a missed record and the next rotation dropped it.
  @Test func aRecordWithSpacesAfterItsColonsIsCarried() throws {
    try withLogInFreshDirectory { log, _ in
      let spaced =
        #"{"event": "gave-up", "text": "Spaced", "reason": "interrupted", "key": "s", "at": "2026-11-22T10:15:03.000Z", "pid": 1}"#
      try Self.write([spaced], to: log.olderPath)
      try Self.write((1...5).map { Self.heard("h\($0)") }, to: log.path)
      let size = Self.contents(log.path)?.utf8.count ?? 0
      #expect(Self.missedKeys(log) == ["s"])
      #expect(OutcomeLog(path: log.path, bound: size + 1).failure(appending: Self.missed("c")) == nil)
      #expect(Self.missedKeys(log) == ["s", "c"])
    }
  }

  /// A rotation keeps exactly what the reader calls missed, however the records are
  /// written: in any order of fields, with spaces after colons and commas (as Python's
  /// `json.dumps` writes them), with escapes, beside claims, errors and damaged lines.
  @Test func aRotationKeepsExactlyWhatTheReaderCallsMissed() throws {
    try withLogInFreshDirectory { log, _ in
      propertyCheck(count: 300, input: GeneratedLog.gen) { generated in
        let (older, written) = generated.files()
        // An empty current file takes a line of any length without a rotation.
        let current = [Self.heard("filler")] + written
        try? Self.write(older, to: log.olderPath)
        try? Self.write(current, to: log.path)
        let before = Set(History(lines: older + current).missed.compactMap(\.key))
        let size = Self.contents(log.path)?.utf8.count ?? 0
        let writer = OutcomeLog(path: log.path, bound: size + 1)
        #expect(writer.failure(appending: Self.missed("new")) == nil)
        #expect(Self.contents(log.olderPath) == current.map { $0 + "\n" }.joined())
        #expect(Self.missedKeys(log) == before.union(["new"]))
      }
    }
  }
}

/// A history as users' processes write it: each announcement's record, then perhaps its
/// replays, in time order, cut into the older file and the current one; each record in a
/// format of its own.
struct GeneratedLog: CustomStringConvertible {
  /// One record: its fields in order, and how it is written.
  struct Record {
    var fields: [(String, String)]
    var spaced: Bool
    var escaped: Bool
    var damaged: Bool

    var line: String {
      var fields = fields
      if escaped {
        // The event's hyphen or last letter as a \u escape, which a JSON reader undoes.
        fields = fields.map { name, value in
          guard name == "event" else { return (name, value) }
          if let hyphen = value.firstIndex(of: "-") {
            return (name, value.replacingCharacters(in: hyphen...hyphen, with: "\\u002d"))
          }
          return (
            name,
            String(value.dropLast(2)) + "\\u00" + String(value.dropLast().last?.asciiValue ?? 0, radix: 16)
              + "\""
          )
        }
      }
      let colon = spaced ? ": " : ":"
      let comma = spaced ? ", " : ","
      let line = "{" + fields.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: comma) + "}"
      return damaged ? String(line.dropLast(3)) : line
    }
  }

  var records: [Record]
  var cut: Int

  var description: String { records.map(\.line).joined(separator: "\n") + "\ncut at \(cut)" }

  /// The older file's lines and the current file's.
  func files() -> ([String], [String]) {
    let lines = records.map(\.line)
    let cut = min(cut, lines.count)
    return (Array(lines[..<cut]), Array(lines[cut...]))
  }

  static let events = ["spoken", "gave-up", "shown", "not-shown"]
  static let reasons = ["interrupted", "dropped", "skipped", "unreachable"]

  static var gen: Gen<GeneratedLog> {
    Gen<GeneratedLog> { random in
      var records: [Record] = []
      var keys: [String] = []
      let count = Gen.int(in: 0...24).next(&random)
      for index in 0..<count {
        var fields: [(String, String)]
        let kind = Gen.int(in: 0...9).next(&random)
        let event = Gen.element(of: events).next(&random)
        var isOutcome = true
        switch kind {
        case 0:
          fields = [
            ("event", "\"replay\""), ("keys", "[" + keys.map { "\"\($0)\"" }.joined(separator: ",") + "]"),
          ]
          isOutcome = false
        case 1:
          fields = [("event", "\"error\""), ("text", "\"Nothing\""), ("status", "69")]
          isOutcome = false
        case 2...4 where !keys.isEmpty:
          // A replay of an announcement before it.
          let replayed = Gen.element(of: keys).next(&random)
          fields = [
            ("event", "\"\(event)\""), ("text", "\"Again\""), ("key", "\"r\(index)\""),
            ("replays", "\"\(replayed)\""),
          ]
        default:
          let key = "k\(index)"
          keys.append(key)
          fields = [("event", "\"\(event)\""), ("text", "\"Text \\u00e9 \(index)\""), ("key", "\"\(key)\"")]
        }
        if isOutcome {
          if event == "gave-up" || event == "not-shown" {
            fields.append(("reason", "\"\(Gen.element(of: reasons).next(&random))\""))
          }
          if event.hasSuffix("shown"), Gen.int(in: 0...3).next(&random) == 0 {
            fields.append(("withSpeech", "true"))
          }
          // A field of the wrong type, which the reader leaves out.
          if Gen.int(in: 0...7).next(&random) == 0 { fields.append(("pid", "\"12\"")) }
        }
        fields.append(("at", "\"2026-11-22T10:15:\(10 + index).000Z\""))
        // Shuffled, with `event` anywhere.
        for position in fields.indices.reversed() {
          fields.swapAt(position, Gen.int(in: 0...position).next(&random))
        }
        records.append(
          Record(
            fields: fields, spaced: Gen.bool.next(&random), escaped: Gen.int(in: 0...4).next(&random) == 0,
            damaged: Gen.int(in: 0...15).next(&random) == 0))
      }
      return GeneratedLog(records: records, cut: Gen.int(in: 0...count).next(&random))
    }
  }
}
