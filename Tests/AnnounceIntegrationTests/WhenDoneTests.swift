import Foundation
import Testing
import AnnouncerTesting

/// A process for `--when-done` to wait for: `sleep`, started with a clean signal mask
/// and reaped here, not by ``Running/wait(timeout:)``, so that the test sees the moment it ends.
struct Sleeper {
  let pid: pid_t

  init(seconds: Int) throws {
    pid = try Running("/bin/sleep", ["\(seconds)"]).pid
  }

  /// Whether it has ended; it is reaped then.
  func hasEnded() -> Bool {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) != 0
  }

  /// Waits until it has ended, at most 10 seconds.
  func waitUntilEnded() { _ = eventually { hasEnded() ? true : nil } }

  func kill(_ signal: Int32 = SIGKILL) { Glibc.kill(pid, signal) }
}

extension SpeakingTests {
  /// `--when-done` against the real daemon: what is spoken, and when.
  @Suite struct WhenDone: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// The texts of the `spoken` events in `output`.
    func spokenTexts(_ output: String) -> [String] {
      jsonEvents(output).filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
    }

    @Test func aProcessThatExitsIsAnnouncedOnlyAfterItEnded() throws {
      let sleeper = try Sleeper(seconds: 3)
      let running = try startAnnounce(["--json", "--verbose", "--when-done", "\(sleeper.pid)"])
      #expect(running.waitForOutput(containing: "Waiting for process \(sleeper.pid), sleep, to end."))
      // The output is read before the sleeper is found still running, so anything read
      // then was printed while it ran.
      var printedWhileRunning = ""
      while true {
        let output = running.standardOutput
        if sleeper.hasEnded() { break }
        printedWhileRunning += output
        Thread.sleep(forTimeInterval: 0.02)
      }
      let result = running.wait()
      #expect(result.status == 0, "\(result.standardError)")
      #expect(printedWhileRunning.isEmpty, "printed before the process ended: \(printedWhileRunning)")
      let spoken = spokenTexts(result.standardOutput)
      #expect(spoken.count == 1, "\(result.standardOutput)")
      let text = try #require(spoken.first)
      #expect(text.hasPrefix("Process \(sleeper.pid), sleep, finished after "), "\(text)")
      // The process ran 3 seconds from its start, not from announce's.
      #expect(text.hasSuffix(" 3 seconds."), "\(text)")
    }

    @Test func aProcessKilledByASignalIsAnnouncedWithoutAWordAboutHowItEnded() throws {
      let sleeper = try Sleeper(seconds: 60)
      let running = try startAnnounce(["--json", "--verbose", "--when-done", "\(sleeper.pid)"])
      #expect(running.waitForOutput(containing: "Waiting for process"))
      sleeper.kill(SIGKILL)
      sleeper.waitUntilEnded()
      let result = running.wait()
      #expect(result.status == 0, "\(result.standardError)")
      let text = try #require(spokenTexts(result.standardOutput).first, "\(result.standardOutput)")
      #expect(text.hasPrefix("Process \(sleeper.pid), sleep, finished after "), "\(text)")
      for word in ["status", "signal", "kill", "fail"] {
        #expect(!text.lowercased().contains(word), "\(text)")
      }
    }

    @Test func theTextGivenIsSpokenInsteadOfTheProcesssSentence() throws {
      let sleeper = try Sleeper(seconds: 60)
      let running = try startAnnounce(["--json", "--when-done", "\(sleeper.pid)", "Backup finished"])
      // Nothing tells when the wait began, so give announce time to start it.
      Thread.sleep(forTimeInterval: 0.5)
      sleeper.kill()
      let result = running.wait()
      #expect(result.status == 0, "\(result.standardError)")
      #expect(spokenTexts(result.standardOutput) == ["Backup finished"])
    }

    /// The wait's signal trap and the speech's are two in one process; the second must
    /// take the signals over as the first did.
    @Test(arguments: [(SIGHUP, Int32(129)), (SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalWhileSpeakingAfterTheWaitCancelsTheSpeechAndExitsWithItsStatus(
      signal: Int32, status: Int32
    ) throws {
      let sleeper = try Sleeper(seconds: 1)
      let running = try startAnnounce(["--json", "--when-done", "\(sleeper.pid)", Self.long])
      sleeper.waitUntilEnded()
      #expect(running.waitForOutput(containing: "\"event\":\"begin\"", timeout: 20))
      Thread.sleep(forTimeInterval: 0.5)
      running.send(signal)
      let result = running.wait(timeout: 10)
      #expect(result.status == status, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"reason\":\"cancelled\""), "\(result.standardOutput)")
      #expect(result.seconds < 12)
    }

    /// "Waiting for process" means a signal is handled from then on. A shell reads the line
    /// and sends SIGHUP at once, 20 times: before the trap waited for libdispatch to
    /// register its sources, 28 of 100 such signals were lost and announce waited on.
    @Test func aSignalSentTheMomentTheWaitIsAnnouncedIsNeverLost() throws {
      let script = """
        directory=$(mktemp -d)
        for run in $(seq 1 20); do
          sleep 60 & sleeper=$!
          mkfifo "$directory/stderr"
          "$0" --verbose --when-done "$sleeper" 2> "$directory/stderr" & announcer=$!
          exec 3< "$directory/stderr"
          read -r line <&3
          kill -HUP "$announcer"
          ( sleep 10; kill -KILL "$announcer" ) > /dev/null 2>&1 & watchdog=$!
          wait "$announcer"; status=$?
          kill "$watchdog" 2> /dev/null
          read -r said <&3
          exec 3<&-
          rm "$directory/stderr"
          kill "$sleeper"; wait "$sleeper"
          echo "$status ${said##*; }"
        done 2> /dev/null
        rmdir "$directory"
        """
      let result = try Command.run(
        "/bin/bash", ["-c", script, Command.announce], environment: stack.clientEnvironment(), timeout: 120)
      let outcomes = result.standardOutput.split(separator: "\n")
      #expect(outcomes.count == 20, "\(result.standardOutput)")
      #expect(outcomes.allSatisfy { $0 == "129 nothing was spoken." }, "\(result.standardOutput)")
    }

    @Test(arguments: [(SIGHUP, Int32(129)), (SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringTheWaitExitsWithItsStatusAndNothingIsSpoken(signal: Int32, status: Int32) throws {
      let sleeper = try Sleeper(seconds: 60)
      defer {
        sleeper.kill()
        sleeper.waitUntilEnded()
      }
      let recording = try stack.record()
      let running = try startAnnounce(["--json", "--verbose", "--when-done", "\(sleeper.pid)"])
      #expect(running.waitForOutput(containing: "Waiting for process"))
      running.send(signal)
      let result = running.wait(timeout: 10)
      Thread.sleep(forTimeInterval: 0.5)
      let speech = recording.stop()
      #expect(result.status == status, "\(result.standardError)")
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 2 && lines.last?.hasSuffix("nothing was spoken.") == true, "\(lines)")
      #expect(result.standardOutput.isEmpty)
      #expect(speech < 0.1, "\(speech) s of speech")
    }
  }
}

extension SpeakingTests.Detached {
  @Test func detachWithWhenDoneReturnsAtOnceAndTheBackgroundProcessSpeaksAfterTheEnd() throws {
    let state = detachState()
    defer { try? FileManager.default.removeItem(atPath: state.directory) }
    let sleeper = try Sleeper(seconds: 60)
    defer { sleeper.kill() }
    let result = try Command.run(
      Command.announce, ["--detach", "--when-done", "\(sleeper.pid)", "The detached wait is over"],
      environment: state.environment)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.isEmpty && result.standardOutput.isEmpty)
    #expect(result.seconds < 5, "\(result.seconds) s")
    // Still waiting: nothing is logged while the process runs.
    Thread.sleep(forTimeInterval: 1)
    #expect(logEntries(at: state.log, waitingFor: 0, of: "spoken").isEmpty)
    sleeper.kill(SIGTERM)
    sleeper.waitUntilEnded()
    let entries = logEntries(at: state.log, waitingFor: 1, of: "spoken")
    #expect(entries.compactMap { $0["text"] as? String } == ["The detached wait is over"], "\(entries)")
  }
}

/// `found()` once it finds something, checked every 20 ms for at most 10 seconds.
func eventually<T>(_ found: () -> T?) -> T? {
  let deadline = Date().addingTimeInterval(10)
  while Date() < deadline {
    if let result = found() { return result }
    Thread.sleep(forTimeInterval: 0.02)
  }
  return nil
}

extension SpeakingTests.Detached {
  /// The background process of `--detach --when-done` for `pid`, found by its arguments.
  func detachedWaiter(for pid: pid_t) -> pid_t? {
    let wanted = ["--detached-child", "--when-done", "\(pid)"]
    return eventually {
      ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).first { entry in
        let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") ?? Data()
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return arguments.count >= 4 && Array(arguments[1...3]) == wanted
      }.flatMap { pid_t($0) }
    }
  }

  /// Whether process `pid` catches `signal`, from its `SigCgt` mask, once it does or after 10 seconds.
  func catches(_ signal: Int32, _ pid: pid_t) -> Bool {
    eventually { () -> Bool? in
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") } ?? ""
      let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
      return mask & (1 << UInt64(signal - 1)) != 0 ? true : nil
    } ?? false
  }

  @Test func aDetachedWaitEndedBySIGTERMLogsOneErrorAndSpeaksNothing() throws {
    let state = detachState()
    defer { try? FileManager.default.removeItem(atPath: state.directory) }
    let sleeper = try Sleeper(seconds: 60)
    defer {
      sleeper.kill()
      sleeper.waitUntilEnded()
    }
    let result = try Command.run(
      Command.announce, ["--detach", "--when-done", "\(sleeper.pid)"], environment: state.environment)
    #expect(result.status == 0, "\(result.standardError)")
    let waiter = try #require(detachedWaiter(for: sleeper.pid), "no background process waits")
    // Its trap catches SIGTERM, through Dispatch's handler; before that SIGTERM would
    // kill it unlogged.
    #expect(catches(SIGTERM, waiter), "the background process never took over SIGTERM")
    kill(waiter, SIGTERM)
    let entries = logEntries(at: state.log, waitingFor: 1, of: "error")
    #expect(entries.count == 1, "\(entries)")
    #expect(entries.first?["status"] as? Int == 143)
    #expect((entries.first?["text"] as? String)?.hasSuffix("because of SIGTERM; nothing was spoken.") == true)
  }
}

/// `--when-done` errors that are reported before anything connects or waits.
@Suite struct WhenDoneCommandTests {
  /// A PID that no process can have: Linux gives PIDs below `pid_max` only.
  static func missingPID() throws -> Int {
    let text = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
    return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  func announce(_ arguments: [String], as user: [String] = []) throws -> Command.Result {
    var environment = ProcessInfo.processInfo.environment
    // Had announce connected, it would say so: a bad PID must be found first.
    environment["SPEECHD_ADDRESS"] = "unix_socket:" + UnusedPath.file("when-done.sock")
    environment["XDG_STATE_HOME"] = NSTemporaryDirectory() + "announce-when-done-\(getpid())"
    if user.isEmpty { return try Command.run(Command.announce, arguments, environment: environment) }
    return try Command.run(
      user[0], Array(user.dropFirst()) + [Command.announce] + arguments, environment: environment)
  }

  @Test(arguments: [[], ["--detach"]])
  func aMissingPIDIsOneSentenceAndExit64(extra: [String]) throws {
    let pid = try Self.missingPID()
    let result = try announce(extra + ["--when-done", "\(pid)", "Done"])
    #expect(result.status == 64, "\(result.standardError)")
    #expect(result.standardError == "There is no process \(pid); find the right ID with pgrep or ps.\n")
    #expect(result.seconds < 5)
  }

  @Test func anotherUsersProcessIsRefusedWithExit64() throws {
    // As root, which may wait for any process, announce runs as nobody and is given one
    // of root's; otherwise PID 1, which is root's.
    let sleeper = try Sleeper(seconds: 60)
    defer {
      sleeper.kill()
      sleeper.waitUntilEnded()
    }
    let asRoot = getuid() == 0
    let result = try announce(
      ["--when-done", asRoot ? "\(sleeper.pid)" : "1"],
      as: asRoot ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : [])
    #expect(result.status == 64, "\(result.standardError)")
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains("belongs to another user") == true, "\(lines)")
  }

  @Test func announceItselfIsRefused() throws {
    // Through a shell that announce replaces, so its PID is the shell's.
    let result = try Command.run("/bin/sh", ["-c", #"exec "$0" --when-done $$ Done"#, Command.announce])
    #expect(result.status == 64, "\(result.standardError)")
    #expect(result.standardError.contains("cannot wait for its own end"), "\(result.standardError)")
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func theCompletionOffersTheIDsOfTheUsersProcesses(shell: String) throws {
    let result = try Command.run(Command.announce, ["--generate-completion-script", shell])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("when-done"))
    #expect(result.standardOutput.contains(#"ps -o pid= -u "$(id -u)""#))
  }
}
