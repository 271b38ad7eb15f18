import Foundation
import Testing

extension SpeakingTests {
  /// `--detach` against the real daemon. These are nested in ``SpeakingTests`` so that only one
  /// test speaks at a time.
  @Suite struct Detached: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// A fresh state directory for the log, and the log's path in it.
    func detachState() -> (environment: [String: String], log: String, directory: String) {
      let directory = NSTemporaryDirectory() + "announce-detach-\(getpid())-\(UUID().uuidString.prefix(8))"
      return (
        stack.clientEnvironment(["XDG_STATE_HOME": directory]), directory + "/announce/log.jsonl",
        directory
      )
    }

    /// The JSON objects of the log at `path`, once `count` of them say `event`, or after 20 seconds.
    func logEntries(at path: String, waitingFor count: Int, of event: String) -> [[String: Any]] {
      let deadline = Date().addingTimeInterval(20)
      var entries: [[String: Any]] = []
      repeat {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        entries = text.split(separator: "\n").compactMap {
          try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        if entries.filter({ $0["event"] as? String == event }).count >= count { break }
        Thread.sleep(forTimeInterval: 0.02)
      } while Date() < deadline
      return entries
    }

    @Test func detachExitsAtOnceAndTheAnnouncementIsThenHeardAndLogged() throws {
      let state = detachState()
      defer { try? FileManager.default.removeItem(atPath: state.directory) }
      let recording = try stack.record()
      let result = try Command.run(
        Command.announce, ["--detach", "The detached announcement"], environment: state.environment)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty && result.standardOutput.isEmpty)
      // It returned before the announcement was heard: nothing is logged yet.
      #expect(logEntries(at: state.log, waitingFor: 0, of: "spoken").isEmpty)
      let entries = logEntries(at: state.log, waitingFor: 1, of: "spoken")
      let speech = recording.stop()
      #expect(entries.count == 1, "\(entries)")
      #expect(entries.first?["event"] as? String == "spoken")
      #expect(entries.first?["text"] as? String == "The detached announcement")
      #expect(entries.first?["at"] is String && entries.first?["pid"] is Int)
      #expect(speech > 0.8, "\(speech) s of speech")
    }

    @Test func detachGoesOnReadingAPipeAfterItReturns() throws {
      let state = detachState()
      defer { try? FileManager.default.removeItem(atPath: state.directory) }
      try FileManager.default.createDirectory(atPath: state.directory, withIntermediateDirectories: true)
      // The second line is written only after announce --detach has exited.
      let script = """
        mkfifo "$STATE/fifo"
        "$0" --detach < "$STATE/fifo" &
        exec 3> "$STATE/fifo"
        echo "first line" >&3
        wait $!
        echo "detach exited $?"
        echo "second line" >&3
        exec 3>&-
        """
      var environment = state.environment
      environment["STATE"] = state.directory
      let result = try Command.run(
        "/bin/bash", ["-c", script, Command.announce], environment: environment)
      #expect(result.standardOutput == "detach exited 0\n", "\(result.standardError)")
      let entries = logEntries(at: state.log, waitingFor: 2, of: "spoken")
      #expect(entries.compactMap { $0["text"] as? String } == ["first line", "second line"])
    }

    @Test func detachWithOptionsKeepsThemInTheBackground() throws {
      let state = detachState()
      defer { try? FileManager.default.removeItem(atPath: state.directory) }
      let result = try Command.run(
        Command.announce, ["--timeout", "0", "--rate", "50", "--detach", "--", "--detach"],
        environment: state.environment)
      #expect(result.status == 0, "\(result.standardError)")
      let entries = logEntries(at: state.log, waitingFor: 1, of: "spoken")
      #expect(entries.compactMap { $0["text"] as? String } == ["--detach"])
    }
  }
}

extension SpeakingTests.Detached {
  @Test func aLogThatIsNotARegularFileIsNamedAndTheDeliveryGoesOn() throws {
    let state = detachState()
    defer { try? FileManager.default.removeItem(atPath: state.directory) }
    try FileManager.default.createDirectory(
      atPath: state.directory + "/announce", withIntermediateDirectories: true)
    #expect(mkfifo(state.log, 0o600) == 0)
    let result = try Command.run(Command.announce, ["--detach", "Saved"], environment: state.environment)
    #expect(result.status == 0)
    #expect(
      result.standardError
        == "The outcome log \(state.log) is not a regular file of yours, so outcomes are not logged; remove it.\n"
    )
  }
}

/// `--detach` errors that are reported before anything goes into the background.
@Suite struct DetachCommandTests {
  func announce(
    _ arguments: [String], environment extra: [String: String] = [:]
  ) throws
    -> (Command.Result, log: String)
  {
    let directory = NSTemporaryDirectory() + "announce-detach-\(getpid())-\(UUID().uuidString.prefix(8))"
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = directory
    environment.merge(extra) { _, new in new }
    let result = try Command.run(Command.announce, arguments, environment: environment)
    return (result, directory + "/announce/log.jsonl")
  }

  @Test(arguments: [
    ["--detach", "--rate", "500", "x"], ["--detach", "--json", "x"], ["--detach", "--verbose", "x"],
    ["--detach", "--list-voices"], ["--detach", "--input", "json", "x"],
  ])
  func usageErrorsStillExit64(arguments: [String]) throws {
    let (result, log) = try announce(arguments)
    #expect(result.status == 64, "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: log))
  }

  @Test func anUnreachableDaemonStillExits69WithItsSentence() throws {
    let (result, log) = try announce(
      ["--detach", "Saved"], environment: ["SPEECHD_ADDRESS": "unix_socket:/nonexistent/announce.sock"])
    #expect(result.status == 69)
    #expect(result.standardError.contains("/nonexistent/announce.sock"))
    #expect(result.seconds < 2)
    #expect(!FileManager.default.fileExists(atPath: log))
  }

  @Test func invalidSSMLStillExits65() throws {
    let (result, _) = try announce(
      ["--detach", "--ssml", "<speak>Hi"], environment: ["SPEECHD_ADDRESS": "unix_socket:/nonexistent/x.sock"]
    )
    #expect(result.status == 65)
    #expect(result.standardError.hasPrefix("Bad input"))
  }
}

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
      environment: ["SPEECHD_ADDRESS": "unix_socket:/nonexistent/x.sock"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(entries.isEmpty)
  }

  @Test func anUnreachableDaemonIsLoggedAsAnError() throws {
    let (result, entries) = try hookFinished(
      ["--status", "2", "--milliseconds", "12000", "--", "make test"],
      environment: ["SPEECHD_ADDRESS": "unix_socket:/nonexistent/hook.sock"])
    #expect(result.status == 69)
    #expect(entries.count == 1)
    #expect(entries.first?["event"] as? String == "error")
    #expect(entries.first?["status"] as? Int == 69)
    #expect((entries.first?["text"] as? String)?.contains("/nonexistent/hook.sock") == true)
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
    environment["SPEECHD_ADDRESS"] = "unix_socket:/nonexistent/full.sock"
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
    #expect(lines.count == 3 && lines.last == "", "\(lines)")
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
