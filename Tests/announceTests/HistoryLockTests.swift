import AnnouncerCore
import Foundation
import Glibc
import Synchronization
import Testing

@testable import announce
import AnnouncerTesting

/// Issue #39 items 4 and 5: a claim that cannot be written speaks nothing, a read that
/// straddles a rotation does not replay twice, the lock is free while the log is parsed,
/// and writers waiting for it leave Swift's cooperative pool free.
@Suite(.serialized, .timeLimit(.minutes(1))) struct HistoryLockTests {
  /// A count that tasks add to.
  final class Count: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
  }

  /// A service that counts the runs that asked it for an announcer, and has none to give.
  final class CountingService: SpeechService {
    let asked = Count()

    func speaker(
      for request: AnnounceRequest, whenTurnsUnavailable: (TurnsUnavailable) -> Void
    ) async throws(SpeechdConnectError) -> (announcer: Announcer, voices: (any VoiceListing)?) {
      asked.add()
      throw .unreachable(
        .unixSocket(path: UnusedPath.file("speechd.sock"), isUserDefault: false),
        detail: "No such file or directory")
    }
  }

  static func missed(_ key: String) -> String {
    "{\"event\":\"gave-up\",\"text\":\"Missed \(key)\",\"reason\":\"interrupted\",\"key\":\"\(key)\","
      + "\"priority\":\"text\",\"at\":\"2026-11-22T10:15:03.000Z\",\"pid\":1}"
  }

  static func heard(_ key: String) -> String {
    "{\"event\":\"spoken\",\"text\":\"Heard \(key)\",\"key\":\"\(key)\",\"at\":\"2026-11-22T10:15:04.000Z\",\"pid\":1}"
  }

  /// Sets ``OutcomeLog/unlockedStep`` for the reads of `log` while `body` runs.
  static func atUnlockedSteps<Value>(
    of log: OutcomeLog, _ action: @escaping @Sendable (OutcomeLog.UnlockedStep) -> Void,
    _ body: () throws -> Value
  ) rethrows -> Value {
    let path = log.path
    OutcomeLog.unlockedStep.withLock { $0[path] = action }
    defer { _ = OutcomeLog.unlockedStep.withLock { $0.removeValue(forKey: path) } }
    return try body()
  }

  /// Runs `body` with the state directory of a log that holds `lines` and can be read
  /// but not appended to: on a full file system when root, whom permissions do not stop;
  /// read-only otherwise.
  static func withUnappendableLog(
    _ lines: [String], _ body: (OutcomeLog, String) async throws -> Void
  ) async throws {
    let state = NSTemporaryDirectory() + "announce-claim-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: state) }
    let root = geteuid() == 0
    if root {
      guard mount("tmpfs", state, "tmpfs", 0, "size=64k") == 0 else {
        Issue.record("tmpfs could not be mounted: \(String(cString: strerror(errno)))")
        return
      }
    }
    defer { if root { umount(state) } }
    try FileManager.default.createDirectory(atPath: state + "/announce", withIntermediateDirectories: true)
    let log = OutcomeLog(path: state + "/announce/log.jsonl")
    var text = lines.joined(separator: "\n") + "\n"
    // A whole page, so that an append needs a new one: a line that is no record pads it.
    text += String(repeating: "x", count: 4095 - text.utf8.count % 4096) + "\n"
    try text.write(toFile: log.path, atomically: false, encoding: .utf8)
    // Taking the lock needs no room once its file is there.
    #expect(FileManager.default.createFile(atPath: log.lockPath, contents: nil))
    if root {
      let filler = open(state + "/filler", O_WRONLY | O_CREAT, 0o600)
      let page = [UInt8](repeating: 0, count: 4096)
      while write(filler, page, page.count) == page.count {}
      close(filler)
    } else {
      chmod(log.path, 0o444)
    }
    try await body(log, state)
  }

  /// Before, the claim's failure was ignored and the replay spoke what it had not
  /// claimed, so two replays at once could speak the same announcement.
  @Test func aReplayWhoseClaimCannotBeWrittenSpeaksNothingAndSaysWhyOnOneLine() async throws {
    try await Self.withUnappendableLog([Self.missed("a"), Self.missed("b")]) { log, state in
      let service = CountingService()
      let replay = try ReplayCommand.parse(["--quiet"])
      let results = await replay.replay(
        environment: ["XDG_STATE_HOME": state, "HOME": UnusedPath.folder()], service: service)
      #expect(service.asked.value == 0, "the replay tried to speak")
      #expect(ExitStatus.of(results) == 1)
      guard case .failed(let failure)? = results.first, results.count == 1 else {
        Issue.record("\(results)")
        return
      }
      let cause = String(cString: strerror(geteuid() == 0 ? ENOSPC : EACCES))
      #expect(
        failure.sentence.contains("(\(cause))") && failure.sentence.contains("spoke nothing")
          && !failure.sentence.contains("\n"), "\(failure.sentence)")
      // Nothing was claimed: both are left for the next replay.
      #expect(
        History(log: log).toReplay(last: false, isRunning: History.isRunning).compactMap(\.key) == ["a", "b"])
    }
  }

  /// A replay (this process) claimed `m1`, in the current file; the reader read the older
  /// file, then a rotation moved the claim into the older file and carried `m1` into the
  /// new one. Before, the reader saw `m1` twice and the claim not at all, and spoke it again.
  @Test func aReadThatStraddlesARotationDoesNotReplayTwice() throws {
    try withLogInFreshDirectory { log, _ in
      try (Self.missed("m1") + "\n").write(toFile: log.olderPath, atomically: false, encoding: .utf8)
      let current =
        ([History.claimLine(keys: ["m1"])] + (1...20).map { Self.heard("h\($0)") })
        .joined(separator: "\n") + "\n"
      try current.write(toFile: log.path, atomically: false, encoding: .utf8)
      // A writer whose bound the current file is at: its next line rotates.
      let rotating = OutcomeLog(path: log.path, bound: current.utf8.count + 1)
      let rotated = Mutex(false)
      let chosen = try Self.atUnlockedSteps(of: log) { step in
        guard step == .betweenFiles, !rotated.withLock({ $0 }) else { return }
        rotated.withLock { $0 = true }
        #expect(rotating.failure(appending: Self.missed("m2")) == nil)
      } _: {
        try History.claim(in: log, last: false).get().1.compactMap(\.key)
      }
      #expect(rotated.withLock { $0 })
      // The rotation did carry m1 and move the claim.
      #expect(try String(contentsOfFile: log.olderPath, encoding: .utf8) == current)
      #expect(try String(contentsOfFile: log.path, encoding: .utf8).contains("\"key\":\"m1\""))
      #expect(chosen == ["m2"])
    }
  }

  /// Before, a replay's claim parsed the whole log while it held the lock. Another writer
  /// takes the lock without waiting (a lock timeout of zero) at the point where a claim,
  /// and a rotation, has parsed a large log, and its line is not lost.
  @Test func anotherWriterGetsTheLockWhileAClaimOrARotationParsesTheLog() throws {
    try withLogInFreshDirectory { log, _ in
      let older = (1...5_000).map { Self.missed("o\($0)") }.joined(separator: "\n") + "\n"
      try older.write(toFile: log.olderPath, atomically: false, encoding: .utf8)
      let current = (1...5_000).map { Self.heard("h\($0)") }.joined(separator: "\n") + "\n"
      try current.write(toFile: log.path, atomically: false, encoding: .utf8)
      let other = OutcomeLog(path: log.path, lockTimeout: .zero)
      let appended = Mutex<[Bool]>([])
      let chosen = try Self.atUnlockedSteps(of: log) { step in
        guard step == .parsed else { return }
        let number = appended.withLock { $0.count + 1 }
        let went = other.failure(appending: Self.missed("late\(number)")) == nil
        appended.withLock { $0.append(went) }
      } _: {
        let chosen = try History.claim(in: log, last: false).get().1.compactMap(\.key)
        // A writer at the bound the current file is now at rotates on its next line.
        let size = (try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
        #expect(OutcomeLog(path: log.path, bound: size + 1).failure(appending: Self.heard("new")) == nil)
        return chosen
      }
      #expect(appended.withLock { $0 } == [true, true])
      // What was appended while the claim parsed is claimed too, and nothing is lost.
      #expect(chosen.count == 5_001 && chosen.last == "late1")
      let keys = History(log: log).outcomes.compactMap(\.key)
      #expect(keys.contains("late1") && keys.contains("late2") && keys.contains("new"))
    }
  }

  /// Writers waiting for the lock wait on threads of their own: a task started after
  /// more of them than Swift's cooperative pool has threads runs while they all wait.
  /// Before, each polled on a thread of the pool, and nothing else ran until they gave up.
  @Test func writersWaitingForTheLockLeaveTheCooperativePoolFree() async throws {
    try await withTemporaryLog { log in
      #expect(log.append(Self.missed("a")))
      let holder = open(log.lockPath, O_WRONLY | O_CLOEXEC)
      #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
      let finished = Count()
      let waiters = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
      let writer = HistoryWriter(log: log, failed: { _ in })
      let results = await withTaskGroup(of: Bool.self) { group -> [Bool] in
        for _ in 0..<waiters {
          group.addTask {
            let claimed = await OutcomeLog.blocking {
              (try? History.claim(in: log, last: false, limit: 1).get()) != nil
            }
            finished.add()
            return claimed
          }
        }
        group.addTask {
          writer.write(Self.missed("b"))
          await writer.finish()
          finished.add()
          return true
        }
        await Task.detached {}.value
        #expect(finished.value == 0, "the waiters gave up before another task could run")
        close(holder)
        return await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.count == waiters + 1 && results.allSatisfy { $0 })
      #expect(History(log: log).outcomes.compactMap(\.key) == ["a", "b"])
    }
  }
}
