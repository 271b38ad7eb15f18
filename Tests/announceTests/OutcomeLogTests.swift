import AnnouncerCore
import Foundation
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// The log of detached runs: what goes in, where it is, and its rotation.
@Suite struct OutcomeLogTests {
  /// A log in a fresh directory that the test removes.
  func withLog(bound: Int, _ body: (OutcomeLog) throws -> Void) rethrows {
    let directory = NSTemporaryDirectory() + "announce-log-test-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try body(OutcomeLog(path: directory + "/announce/log.jsonl", bound: bound))
  }

  func lines(_ path: String) -> [String] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  @Test func onlyOutcomesAreKeptEachStampedWithTimeAndProcess() throws {
    try withLog(bound: 1 << 20) { log in
      let date = Date(timeIntervalSince1970: 1_800_000_000.25)
      func event(_ id: Int, _ kind: AnnouncerEvent.Kind) -> AnnouncerEvent {
        AnnouncerEvent(
          announcement: AnnouncementID(id), text: "a", attempt: 1, time: .milliseconds(700), kind: kind)
      }
      let recorder = HistoryRecorder(log: log, terminal: nil)
      for kind: AnnouncerEvent.Kind in [.queued, .attempt, .begin, .interrupted, .waitingForQuiet] {
        recorder.record(event(1, kind), at: date, pid: 42)
      }
      recorder.record(event(1, .spoken(duration: .milliseconds(700))), at: date, pid: 42)
      recorder.record(event(2, .gaveUp(.noRetry)), at: date, pid: 42)
      recorder.rejected(line: 3, input: "x", reason: "bad", time: .seconds(1))
      recorder.waitUntilWritten()
      log.record(error: "speech-dispatcher \"x\" is gone.", status: 69, at: date, pid: 42)
      let written = lines(log.path)
      #expect(written.count == 3)
      let objects = written.compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      // A rejected input line is no outcome, and is not kept.
      #expect(objects.count == 3, "\(written)")
      #expect(objects.compactMap { $0["event"] as? String } == ["spoken", "gave-up", "error"])
      #expect(objects.prefix(2).allSatisfy { $0["pid"] as? Int == 42 })
      let stamp = try #require(objects.first?["at"] as? String)
      let parser = ISO8601DateFormatter()
      parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
      #expect(parser.date(from: stamp) == date, "\(stamp)")
      #expect(objects[2]["text"] as? String == "speech-dispatcher \"x\" is gone.")
      #expect(objects[2]["status"] as? Int == 69)
    }
  }

  @Test func theLogIsRotatedBeforeALineWouldPassTheBoundAndOneOlderFileIsKept() throws {
    try withLog(bound: 300) { log in
      func spoken(_ id: Int) -> AnnouncerEvent {
        AnnouncerEvent(
          announcement: AnnouncementID(id), text: "announcement", attempt: 1,
          time: .milliseconds(500), kind: .spoken(duration: .milliseconds(500)))
      }
      let recorder = HistoryRecorder(log: log, terminal: nil)
      for id in 1...12 { recorder.record(spoken(id), at: Date(), pid: 1) }
      recorder.waitUntilWritten()
      let current = lines(log.path)
      let older = lines(log.olderPath)
      let size = (try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
      #expect(size <= 300)
      #expect(!older.isEmpty)
      // The newest lines are in the current file, the ones just before them in the older one.
      #expect(current.last?.contains("\"id\":12,") == true)
      let ids = (older + current).compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
      }
      #expect(ids == Array((12 - ids.count + 1)...12), "\(ids)")
      #expect(ids.count < 12, "only two files are kept")
      #expect(!FileManager.default.fileExists(atPath: log.path + ".2"))
    }
  }

  @Test func aLineLongerThanTheBoundIsStillWrittenToAFreshFile() {
    withLog(bound: 50) { log in
      log.append("first")
      log.append(String(repeating: "x", count: 80))
      #expect(lines(log.olderPath) == ["first"])
      #expect(lines(log.path) == [String(repeating: "x", count: 80)])
    }
  }

  /// Environments and the log path each gives. The table lives outside `@Test(arguments:)`
  /// because Swift 6.0.3 (Debian 13's swiftlang) crashes on string interpolation inside the
  /// macro's argument (CSGen.cpp visitTapExpr assertion).
  static let stateDirectories: [([String: String], String)] = [
    (
      ["XDG_STATE_HOME": "\(testRoot)/state", "HOME": "\(testRoot)/home/u"],
      "\(testRoot)/state/announce/log.jsonl"
    ),
    (
      ["XDG_STATE_HOME": "relative", "HOME": "\(testRoot)/home/u"],
      "\(testRoot)/home/u/.local/state/announce/log.jsonl"
    ),
    (["HOME": "\(testRoot)/home/u"], "\(testRoot)/home/u/.local/state/announce/log.jsonl"),
  ]

  @Test(arguments: stateDirectories)
  func theLogLivesInTheStateDirectory(environment: [String: String], expected: String) {
    #expect(OutcomeLog.defaultPath(environment: environment) == expected)
  }
}

/// How `--detach` hands its arguments to the background process.
@Suite struct DetachArgumentTests {
  @Test func theChildGetsTheArgumentsWithoutDetachAndWithTheChildFlag() {
    #expect(
      Detach.childArguments(from: ["-t", "5", "--detach", "Saved", "--detach"])
        == ["--detached-child", "-t", "5", "Saved"])
    #expect(
      Detach.childArguments(from: ["--detach", "--", "--detach", "init"])
        == ["--detached-child", "--", "--detach", "init"])
  }

  @Test func detachRefusesOptionsWhoseOutputWouldBeLost() {
    for arguments in [
      ["--detach", "--json", "x"], ["--detach", "-v", "x"], ["--detach", "--list-modules"],
    ] {
      #expect(throws: (any Error).self, "\(arguments)") {
        try Announce.parse(arguments).request(environment: [:])
      }
    }
  }

  @Test func theBackgroundHalfReportsOnlyToTheLog() throws {
    let child = try Announce.parse(["--detached-child", "--", "Saved"]).request(environment: Self.home)
    #expect(!child.outcomes.json && !child.outcomes.verbose && child.work == .speak)
    #expect(
      child.outcomes.unattended
        && child.outcomes.history?.path == "\(testRoot)/home/someone/.local/state/announce/log.jsonl")
    let run = AnnounceRun(child)
    let sinks = run.sinks()
    #expect(sinks.count == 1)
    #expect(run.recorder != nil && (sinks.first as? HistoryRecorder) === run.recorder)
  }

  @Test func theForegroundReportsWhereTheOptionsSayAndToTheHistory() throws {
    let both = try Announce.parse(["--json", "--verbose", "Saved"]).request(environment: Self.home)
    #expect(!both.outcomes.unattended)
    let sinks = AnnounceRun(both).sinks()
    #expect(sinks.count == 3)
    #expect(sinks.first is JSONEventStream)
    #expect(sinks[1] is VerboseLines)
    #expect(sinks.last is HistoryRecorder)
    let unrecorded = try Announce.parse(["--no-history", "Saved"]).request(environment: Self.home)
    #expect(AnnounceRun(unrecorded).sinks().isEmpty)
    let off = try Announce.parse(["Saved"]).request(
      environment: Self.home.merging(["ANNOUNCE_HISTORY": "off"]) { $1 })
    #expect(AnnounceRun(off).sinks().isEmpty)
  }

  /// A home for the requests of these tests, whose logs are never written.
  static let home = ["HOME": "\(testRoot)/home/someone"]
}

/// The log's local timestamps, written without Foundation's formatters.
@Suite struct OutcomeLogTimestampTests {
  func time(offset: Int) -> tm {
    var parts = tm()
    parts.tm_year = 2026 - 1900
    parts.tm_mon = 10
    parts.tm_mday = 2
    parts.tm_hour = 7
    parts.tm_min = 5
    parts.tm_sec = 3
    parts.tm_gmtoff = offset
    return parts
  }

  @Test func theOffsetIsWrittenAsHoursAndMinutesOrZ() {
    #expect(OutcomeLog.timestamp(time(offset: 3600), milliseconds: 120) == "2026-11-02T07:05:03.120+01:00")
    #expect(OutcomeLog.timestamp(time(offset: -12600), milliseconds: 5) == "2026-11-02T07:05:03.005-03:30")
    #expect(OutcomeLog.timestamp(time(offset: 0), milliseconds: 0) == "2026-11-02T07:05:03.000Z")
  }

  @Test func theTimestampIsTheSameInstantInLocalTime() throws {
    let date = Date(timeIntervalSince1970: 1_800_000_000.5)
    let stamp = OutcomeLog.timestamp(date)
    let parser = ISO8601DateFormatter()
    parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    #expect(parser.date(from: stamp) == date, "\(stamp)")
    let offset = TimeZone.current.secondsFromGMT(for: date)
    #expect(offset == 0 ? stamp.hasSuffix("Z") : !stamp.hasSuffix("Z"), "\(stamp)")
  }
}

/// Numbers and escapes written without `String(format:)`.
@Suite struct PlainFormattingTests {
  @Test func secondsAreRoundedToTheGivenDecimals() {
    #expect(EventJSON.seconds(.milliseconds(1234), decimals: 2) == "1.23")
    #expect(EventJSON.seconds(.milliseconds(1235), decimals: 2) == "1.24")
    #expect(EventJSON.seconds(.milliseconds(5), decimals: 2) == "0.01")
    #expect(EventJSON.seconds(.seconds(2), decimals: 2) == "2.00")
    #expect(EventJSON.seconds(.milliseconds(1234)) == "1.234")
  }

  @Test func controlCharactersAreEscapedAsFourHexDigits() {
    #expect(EventJSON.quoted("a\u{1B}b\u{1}") == "\"a\\u001bb\\u0001\"")
  }
}

/// A log that someone tampered with is refused, and a stuck writer cannot block the others.
@Suite struct TamperedOutcomeLogTests {
  func withDirectory(_ body: (OutcomeLog, String) throws -> Void) throws {
    try withLogInFreshDirectory(body)
  }

  /// Runs `body` on a thread of its own; whether it finished within `seconds`, and how long it took.
  /// A body still running after that is let go by `release`, so that no thread stays blocked.
  func finishes(
    within seconds: Double, _ body: @escaping @Sendable () -> Void, release: () -> Void = {}
  ) -> (finished: Bool, seconds: Double) {
    let done = DispatchSemaphore(value: 0)
    let started = Date()
    Thread {
      body()
      done.signal()
    }
    .start()
    let finished = done.wait(timeout: .now() + seconds) == .success
    let took = Date().timeIntervalSince(started)
    if !finished {
      release()
      done.wait()
    }
    return (finished, took)
  }

  @Test func aSymbolicLinkAtTheLogIsNotFollowed() throws {
    try withDirectory { log, directory in
      let target = directory + "/bashrc"
      try "alias ls='ls -F'\n".write(toFile: target, atomically: false, encoding: .utf8)
      #expect(symlink(target, log.path) == 0)
      log.record(error: "x", status: 69)
      #expect(try String(contentsOfFile: target, encoding: .utf8) == "alias ls='ls -F'\n")
      let problem = try #require(log.problem())
      #expect(
        problem
          == "The outcome log \(log.path) is not a regular file of yours, so outcomes are not logged; remove it."
      )
    }
  }

  @Test func aSymbolicLinkAtTheLockIsNotFollowed() throws {
    try withDirectory { log, directory in
      let target = directory + "/elsewhere"
      #expect(symlink(target, log.path + ".lock") == 0)
      log.record(error: "x", status: 69)
      #expect(!FileManager.default.fileExists(atPath: target))
      #expect(!FileManager.default.fileExists(atPath: log.path))
      #expect(log.problem()?.contains(log.path + ".lock") == true)
    }
  }

  @Test func aFIFOAtTheLogDoesNotBlockTheWriter() throws {
    try withDirectory { log, _ in
      #expect(mkfifo(log.path, 0o600) == 0)
      let path = log.path
      let writing = finishes(within: 5, { log.record(error: "x", status: 69) }) {
        // A reader lets the blocked writer go.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        if reader >= 0 { close(reader) }
      }
      #expect(writing.finished, "writing to a FIFO at the log blocked")
      #expect(log.problem() != nil)
    }
  }

  @Test func aLockHeldForEverIsWaitedForAboutASecondAndTheLineLeftOut() throws {
    try withDirectory { log, _ in
      // Ten seconds in use; one here, to keep the test short.
      let log = OutcomeLog(path: log.path, lockTimeout: .seconds(1))
      let holder = open(log.path + ".lock", O_WRONLY | O_CREAT, 0o600)
      defer { close(holder) }
      #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
      let writing = finishes(within: 5, { log.record(error: "x", status: 69) }) { flock(holder, LOCK_UN) }
      #expect(writing.finished, "the writer waited for the lock for ever")
      #expect(writing.seconds >= 0.9 && writing.seconds < 3, "\(writing.seconds) s")
      // The line is left out, not written without the lock.
      #expect(!FileManager.default.fileExists(atPath: log.path))
      flock(holder, LOCK_UN)
      log.record(error: "y", status: 69)
      #expect((try? String(contentsOfFile: log.path, encoding: .utf8))?.contains("\"y\"") == true)
    }
  }

  @Test func aRegularFileOfOursIsFine() throws {
    try withDirectory { log, _ in
      #expect(log.problem() == nil)
      log.record(error: "x", status: 69)
      #expect(log.problem() == nil)
    }
  }
}

/// Runs `body` with a log in a fresh state directory, the log's own directory made, and
/// that state directory; removes it all afterwards.
func withLogInFreshDirectory(_ body: (OutcomeLog, String) throws -> Void) throws {
  let directory = NSTemporaryDirectory() + "announce-log-test-\(UUID().uuidString)"
  defer { try? FileManager.default.removeItem(atPath: directory) }
  try FileManager.default.createDirectory(atPath: directory + "/announce", withIntermediateDirectories: true)
  try body(OutcomeLog(path: directory + "/announce/log.jsonl"), directory)
}
