import Foundation
import Testing
import AnnouncerTesting

/// `announce hook-finished` where no speech is needed: what it decides and what it logs.
@Suite struct HookFinishedTests {
  func hookFinished(
    _ arguments: [String], environment extra: [String: String]
  ) throws
    -> (Command.Result, entries: [[String: Any]])
  {
    let directory = NSTemporaryDirectory() + "announce-hook-\(getpid())-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ANNOUNCE_") }
    environment["XDG_STATE_HOME"] = directory
    environment.merge(extra) { _, new in new }
    let result = try Command.run(Command.announce, ["hook-finished"] + arguments, environment: environment)
    let text = (try? String(contentsOfFile: directory + "/announce/log.jsonl", encoding: .utf8)) ?? ""
    let entries = text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    return (result, entries)
  }

  @Test func aShortCommandIsNotAnnouncedAndNothingIsLogged() throws {
    let (result, entries) = try hookFinished(
      ["--status", "0", "--milliseconds", "9000", "--", "make"],
      environment: ["SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("x.sock")])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(entries.isEmpty)
  }

  /// The sentence is recorded as missed, for replay, and the failure as an error.
  @Test func anUnreachableDaemonIsLoggedAsAnErrorAndItsSentenceAsMissed() throws {
    let socket = UnusedPath.file("hook.sock")
    let (result, entries) = try hookFinished(
      ["--status", "2", "--milliseconds", "12000", "--", "make test"],
      environment: ["SPEECHD_ADDRESS": "unix_socket:" + socket])
    #expect(result.status == 69)
    #expect(entries.count == 2, "\(entries)")
    // The missed record goes through the history's writer thread and the error line is
    // appended directly, so their order in the log is not fixed; each must be there.
    let missed = entries.first { $0["event"] as? String == "gave-up" }
    let error = entries.first { $0["event"] as? String == "error" }
    #expect(missed?["reason"] as? String == "unreachable", "\(entries)")
    #expect((missed?["text"] as? String)?.contains("make test") == true)
    #expect(error?["status"] as? Int == 69, "\(entries)")
    #expect((error?["text"] as? String)?.contains(socket) == true)
  }

  @Test func anInvalidVariableIsLoggedWithTheSentenceThatWasNotSpoken() throws {
    let (result, entries) = try hookFinished(
      ["--status", "0", "--milliseconds", "65000", "--", "make test"],
      environment: ["ANNOUNCE_RATE": "fast"])
    #expect(result.status == 64)
    let text = try #require(entries.first?["text"] as? String, "\(entries)")
    #expect(text.contains("make test finished after 1 minute 5 seconds"))
    #expect(text.contains("ANNOUNCE_RATE=fast"))
  }
}

extension HookFinishedTests {
  /// A log with a full disk under it: the file size limit of `ulimit -f` makes the write
  /// fall short as ENOSPC would, deterministically and without a special file system.
  @Test func onAFullDiskNoPartialLineIsLeftAndTheNextRecordIsWhole() throws {
    let directory = NSTemporaryDirectory() + "announce-full-\(getpid())-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = directory + "/announce/log.jsonl"
    try FileManager.default.createDirectory(
      atPath: directory + "/announce", withIntermediateDirectories: true)
    let earlier = "{\"event\":\"spoken\",\"text\":\"" + String(repeating: "a", count: 960) + "\"}\n"
    try earlier.write(toFile: log, atomically: false, encoding: .utf8)
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ANNOUNCE_") }
    environment["XDG_STATE_HOME"] = directory
    environment["SPEECHD_ADDRESS"] = "unix_socket:" + UnusedPath.file("full.sock")
    environment["ANNOUNCE"] = Command.announce
    let run = #"exec "$ANNOUNCE" hook-finished --status 2 --milliseconds 12000 -- make test"#
    // 1 KiB leaves room for the start of the error record only. SIGXFSZ is ignored, as
    // it plays no part on a real full disk.
    let full = try Command.run(
      "/bin/bash", ["-c", "trap '' XFSZ; ulimit -f 1; " + run], environment: environment)
    #expect(full.status == 69, "\(full.standardError)")
    #expect(try String(contentsOfFile: log, encoding: .utf8) == earlier)
    let roomy = try Command.run("/bin/bash", ["-c", run], environment: environment)
    #expect(roomy.status == 69)
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    // The earlier record, the missed sentence and the error.
    #expect(lines.count == 4 && lines.last == "", "\(lines)")
    for line in lines.dropLast() {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
    }
  }
}

extension SpeakingTests.Detached {
  /// The processes that hold a place in line for the speaking turn in the turns
  /// directories under `runtime`, from their ticket names (`TIME-PID-SERIAL`, or with
  /// `held-` before it while speaking). A process has a ticket once its announcement is
  /// queued, and that is after it has taken over SIGINT and SIGTERM.
  func processesInLine(runtime: String) -> Set<pid_t> {
    let base = runtime + "/announce"
    let directories = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [])
      .filter { $0.hasPrefix("turns-") }
    var pids: Set<pid_t> = []
    for directory in directories {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: base + "/" + directory)) ?? [] {
        let fields = name.replacingOccurrences(of: "held-", with: "").split(separator: "-")
        if fields.count == 3, fields[0].count == 20, let pid = pid_t(fields[1]) { pids.insert(pid) }
      }
    }
    return pids
  }

  /// ``processesInLine(runtime:)`` once `count` processes are in line, or after 20 seconds.
  func processesInLine(runtime: String, once count: Int) -> Set<pid_t> {
    var processes: Set<pid_t> = []
    let deadline = Date().addingTimeInterval(20)
    repeat {
      processes = processesInLine(runtime: runtime)
      if processes.count >= count { break }
      Thread.sleep(forTimeInterval: 0.02)
    } while Date() < deadline
    return processes
  }

  /// `environment` with speaking turns of its own, in a runtime directory made under
  /// `directory`, so that the test can see who waits in line; and that directory.
  func ownTurns(
    _ environment: [String: String], in directory: String
  ) throws
    -> (environment: [String: String], runtime: String)
  {
    let runtime = directory + "/run"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var environment = environment
    environment["XDG_RUNTIME_DIR"] = runtime
    return (environment, runtime)
  }

  @Test func detachedChildrenSentSIGTERMLogTheirOutcomesBeforeTheyExit() throws {
    let state = detachState()
    defer { try? FileManager.default.removeItem(atPath: state.directory) }
    let (environment, runtime) = try ownTurns(state.environment, in: state.directory)
    let count = 20
    let first = try Command.run(
      Command.announce,
      [
        "--detach",
        String(repeating: "This announcement goes on for a long while, so that the others wait. ", count: 8),
      ],
      environment: environment)
    #expect(first.status == 0, "\(first.standardError)")
    // The first holds the turn before the others come: a background process that starts
    // late under load let "Waiting number 1" take the turn first and be spoken.
    try #require(processesInLine(runtime: runtime, once: 1).count == 1, "the first never took its turn")
    for index in 1...count {
      let result = try Command.run(
        Command.announce, ["--detach", "--timeout", "60", "Waiting number \(index)"], environment: environment
      )
      #expect(result.status == 0, "\(result.standardError)")
    }
    let children = processesInLine(runtime: runtime, once: count + 1)
    try #require(
      children.count == count + 1,
      "\(children.count) in line; the log: \((try? String(contentsOfFile: state.log, encoding: .utf8)) ?? "")"
    )
    // The log is slow to take, as when many writers contend for it: each child has to
    // wait for the lock before its outcome goes in, and must not exit before then. The
    // hold is well within the second a writer waits for the lock.
    try FileManager.default.createDirectory(
      atPath: state.directory + "/announce", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let lock = open(state.log + ".lock", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
    for pid in children { kill(pid, SIGTERM) }
    Thread.sleep(forTimeInterval: 0.4)
    close(lock)
    let entries = logEntries(at: state.log, waitingFor: count + 1, of: "gave-up")
    let outcomes = entries.filter { ($0["text"] as? String)?.hasPrefix("Waiting number") == true }
    #expect(outcomes.count == count, "\(entries)")
    #expect(outcomes.allSatisfy { $0["reason"] as? String == "cancelled" }, "\(outcomes)")
    #expect(Set(outcomes.compactMap { $0["text"] as? String }).count == count)
  }
}
