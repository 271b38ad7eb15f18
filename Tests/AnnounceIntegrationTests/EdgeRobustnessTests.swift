import Foundation
import Testing
import AnnouncerTesting

extension SpeakingTests {
  /// Issue #39 items 6, 8 and 9 on the real stack: a relative HOME writes nothing where
  /// the hooks run, `--when-done` waits before it needs speech-dispatcher, and what an
  /// error loses is named or recorded as missed.
  @Suite struct EdgeRobustness: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// A fresh directory, made.
    func freshDirectory(_ name: String) throws -> String {
      let directory = NSTemporaryDirectory() + "announce-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      return directory
    }

    /// The JSON lines of the log in `state`.
    func logEntries(state: String) -> [[String: Any]] {
      let text = (try? String(contentsOfFile: state + "/announce/log.jsonl", encoding: .utf8)) ?? ""
      return text.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
    }

    /// The texts of the log's `error` lines in `state`.
    func errorLines(state: String) -> [String] {
      logEntries(state: state).filter { $0["event"] as? String == "error" }.compactMap {
        $0["text"] as? String
      }
    }

    /// The hooks' error path and the tmux alerts' rate-limit file put their files under a
    /// relative HOME, in whatever directory the hook ran in; plain announce refuses it.
    @Test func aRelativeHomeMakesNothingInTheDirectoryTheHooksRunIn() throws {
      let directory = try freshDirectory("relative-home")
      defer { try? FileManager.default.removeItem(atPath: directory) }
      var environment = stack.clientEnvironment()
      environment["XDG_STATE_HOME"] = nil
      environment["HOME"] = "relative-home"
      // In `directory`, as a hook started there would be.
      func run(_ arguments: [String], _ extra: [String: String]) throws -> Command.Result {
        try Command.run(
          "/bin/sh",
          ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, Command.announce] + arguments,
          environment: environment.merging(extra) { _, new in new })
      }
      let hook = try run(
        ["hook-finished", "--status", "0", "--milliseconds", "60000", "--", "make"],
        ["ANNOUNCE_TIMEOUT": "soon"])
      #expect(hook.status == 64, "\(hook.standardError)")
      let alert = try run(
        ["tmux-alert", "bell", "--server=4242", "--window=@3", "--index=3", "--", "build"],
        ["ANNOUNCE_HISTORY": "off", "ANNOUNCE_RATE": "100"])
      #expect(alert.status == 0, "\(alert.standardError)")
      let made = try FileManager.default.contentsOfDirectory(atPath: directory)
      #expect(made.isEmpty, "made in the hook's directory: \(made)")
      // Plain announce says why, in the sentence the hooks' runs use too.
      let plain = try run(["Saved"], [:])
      #expect(plain.status == 64)
      #expect(
        plain.standardError.contains("HOME=relative-home is not an absolute path"), "\(plain.standardError)")
    }

    /// An unknown module or voice, or an invalid ANNOUNCE_HISTORY, lost the hook's
    /// sentence without a word of which one it was.
    @Test func theHooksErrorLinesNameTheAnnouncementThatWasLost() throws {
      let state = try freshDirectory("lost-text")
      defer { try? FileManager.default.removeItem(atPath: state) }
      let environment = stack.clientEnvironment(["XDG_STATE_HOME": state])
      let hook = ["hook-finished", "--status", "2", "--milliseconds", "60000", "--", "make", "test"]
      let sentence = "make test failed with status 2 after 1 minute"
      for extra in [["ANNOUNCE_MODULE": "vanished"], ["ANNOUNCE_VOICE": "Nobodyatall"]] {
        let result = try Command.run(
          Command.announce, hook, environment: environment.merging(extra) { _, new in new })
        #expect(result.status == 64, "\(extra): \(result.standardError)")
      }
      let alert = try Command.run(
        Command.announce, ["tmux-alert", "bell", "--server=4242", "--window=@3", "--index=3", "--", "build"],
        environment: environment.merging(["ANNOUNCE_HISTORY": "maybe"]) { _, new in new })
      #expect(alert.status == 64, "\(alert.standardError)")
      let lines = errorLines(state: state)
      #expect(lines.count == 3, "\(lines)")
      for line in lines.prefix(2) {
        #expect(line.hasPrefix("The shell hook could not announce \"\(sentence)\": "), "\(line)")
      }
      #expect(lines.first?.contains("vanished") == true, "\(lines)")
      #expect(lines.dropFirst().first?.contains("Nobodyatall") == true, "\(lines)")
      #expect(
        lines.last?.hasPrefix(
          "The tmux hook could not announce \"Bell in window 3, build.\": ANNOUNCE_HISTORY=maybe")
          == true, "\(lines)")
      for line in lines { #expect(!line.contains("\n")) }
    }

    /// A `--detach` whose background process could not be started recorded nothing, so
    /// replay had nothing to say. Here it cannot start because its arguments and
    /// environment no longer fit under the stack limit (E2BIG): `/proc/self/exe` and
    /// `--detached-child` are a few bytes longer than the path and `--detach` it was started
    /// with, and the environment is padded to the last byte that lets the first start.
    @Test func aDetachWhoseBackgroundProcessCannotStartIsRecordedAsMissed() throws {
      let directory = try freshDirectory("spawn")
      defer { try? FileManager.default.removeItem(atPath: directory) }
      // A short path to announce, so that the child's start is the longer one: a link of
      // this test's own in /tmp (TMPDIR may be long), under a new name as mkstemp picks one,
      // so that it never takes the place of another's file.
      let template = "/tmp/aeXXXXXX"
      var link = ""
      repeat {
        let letters = "abcdefghijklmnopqrstuvwxyz0123456789"
        link = template.dropLast(6) + String((0..<6).map { _ in letters.randomElement()! })
      } while symlink(Command.announce, link) != 0 && errno == EEXIST
      #expect(FileManager.default.fileExists(atPath: link), "no link to announce at \(link): errno \(errno)")
      defer { try? FileManager.default.removeItem(atPath: link) }
      // The same lengths in the search and the real run: an address nobody listens on,
      // and a state directory, each as long as the real one.
      let address = stack.address
      let nowhere = String(address.dropLast()) + (address.hasSuffix("x") ? "y" : "x")
      let state = directory + "/s1"
      let searchState = directory + "/s2"
      let text = "Upload finished"
      // 1 MiB of stack: starts may bring at most 256 KiB of arguments and environment.
      func run(padding: Int, address: String, state: String) throws -> Command.Result {
        var environment = stack.clientEnvironment(["XDG_STATE_HOME": state, "SPEECHD_ADDRESS": address])
        var left = padding
        for index in 0..<4 {
          let part = min(left, 100_000)
          environment["ANNOUNCE_TEST_PADDING_\(index)"] = String(repeating: "p", count: part)
          left -= part
        }
        return try Command.run(
          "/usr/bin/prlimit", ["--stack=1048576", "--", link, "--detach", text], environment: environment)
      }
      // The most padding with which announce itself still starts (it then finds no daemon).
      var low = 0
      var high = 300_000
      while low < high {
        let middle = (low + high + 1) / 2
        let result = try run(padding: middle, address: nowhere, state: searchState)
        if result.standardError.contains("Argument list too long") {
          high = middle - 1
        } else {
          #expect(result.status == 69, "\(result.standardError)")
          low = middle
        }
      }
      let result = try run(padding: low, address: address, state: state)
      #expect(result.status == 69, "\(result.standardError)")
      #expect(
        result.standardError.hasPrefix(
          "Could not start the background process for --detach: Argument list too long"),
        "\(result.standardError)")
      let missed = try Command.run(
        Command.announce, ["history", "--missed"],
        environment: stack.clientEnvironment(["XDG_STATE_HOME": state]))
      #expect(
        missed.standardOutput.hasSuffix(" ago, not heard (background process not started): \(text)\n"),
        "\(missed.standardOutput)")
    }
  }
}

extension SpeakingTests.WhenDone {
  /// `--when-done` with no daemon gave up before the wait, and recorded the text as
  /// missed at the start of a job that might run for hours. It waits first: a daemon
  /// started meanwhile speaks it, and nothing is missed.
  @Test func withNoDaemonItWaitsFirstAndSpeaksThroughTheDaemonThatStartedMeanwhile() throws {
    let late = try TestStack.start(name: "late-\(UInt32.random(in: 0...UInt32.max))")
    defer { late.stop() }
    late.stop()
    let state = NSTemporaryDirectory() + "announce-late-\(getpid())-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: state) }
    let environment = late.clientEnvironment(["XDG_STATE_HOME": state])
    let sleeper = try Sleeper(seconds: 60)
    defer { sleeper.kill() }
    let running = try Running(
      Command.announce, ["--json", "--verbose", "--when-done", "\(sleeper.pid)", "Backup finished"],
      environment: environment)
    #expect(running.waitForOutput(containing: "Waiting for process"), "\(running.standardError)")
    let missedWhileWaiting = try Command.run(
      Command.announce, ["history", "--missed"], environment: environment)
    #expect(
      missedWhileWaiting.standardOutput.hasPrefix("Nothing is recorded yet"),
      "\(missedWhileWaiting.standardOutput)")
    try late.startAgain()
    sleeper.kill()
    sleeper.waitUntilEnded()
    let result = running.wait(timeout: 30)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(spokenTexts(result.standardOutput) == ["Backup finished"], "\(result.standardOutput)")
    let missed = try Command.run(Command.announce, ["history", "--missed"], environment: environment)
    #expect(missed.standardOutput == "No announcement was missed.\n", "\(missed.standardOutput)")
  }

  /// With still no daemon at the end, the text is recorded as missed then, once.
  @Test func withNoDaemonAtTheEndTheTextIsRecordedAsMissedThen() throws {
    let state = NSTemporaryDirectory() + "announce-nodaemon-\(getpid())-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: state) }
    let environment = stack.clientEnvironment([
      "XDG_STATE_HOME": state, "SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("speechd.sock"),
    ])
    let sleeper = try Sleeper(seconds: 60)
    defer { sleeper.kill() }
    let running = try Running(
      Command.announce, ["--verbose", "--when-done", "\(sleeper.pid)", "Backup finished"],
      environment: environment)
    #expect(running.waitForOutput(containing: "Waiting for process"), "\(running.standardError)")
    sleeper.kill()
    sleeper.waitUntilEnded()
    let result = running.wait(timeout: 30)
    #expect(result.status == 69, "\(result.standardError)")
    let missed = try Command.run(Command.announce, ["history", "--missed"], environment: environment)
    #expect(
      missed.standardOutput.hasSuffix(" ago, not heard (speech-dispatcher unreachable): Backup finished\n"),
      "\(missed.standardOutput)")
  }
}

extension SpeakingTests.WhenDone {
  /// Issue #39 item 10 on the real stack. The daemon is frozen (SIGSTOP), so after the
  /// process ends announce spends 2 seconds connecting, between the wait and the speech.
  /// A signal sent then was handled by nobody: SIGINT was ignored (exit 69 after the 2
  /// seconds, as measured), SIGTERM and SIGHUP killed announce by their default action,
  /// with no sentence. Each now ends the run at once, with its status and one sentence.
  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
  func aSignalWhileItConnectsAfterTheWaitEndsTheRunWithItsStatus(signal: Int32, status: Int32) throws {
    let frozen = try TestStack.start(name: "gap-\(UInt32.random(in: 0...UInt32.max))")
    defer { frozen.stop() }
    let daemon = try #require(frozen.environment["TESTSTACK_SD_PID"].flatMap { pid_t($0) })
    kill(daemon, SIGSTOP)
    defer { kill(daemon, SIGCONT) }
    let sleeper = try Sleeper(seconds: 60)
    defer { sleeper.kill() }
    let running = try Running(
      Command.announce, ["--verbose", "--when-done", "\(sleeper.pid)", "Saved"],
      environment: frozen.clientEnvironment(["ANNOUNCE_HISTORY": "off"]))
    #expect(running.waitForOutput(containing: "Waiting for process"), "\(running.standardError)")
    sleeper.kill()
    sleeper.waitUntilEnded()
    // Well inside the 2 seconds the connection waits for an answer.
    Thread.sleep(forTimeInterval: 0.4)
    let sent = Date()
    running.send(signal)
    let result = running.wait(timeout: 10)
    let ended = Date().timeIntervalSince(sent)
    #expect(result.status == status, "\(result.standardError)")
    // At once, not when the connection gives up.
    #expect(ended < 1.5, "ended \(ended) s after the signal")
    let lines = result.standardError.split(separator: "\n")
    #expect(
      lines.last?.hasSuffix("came before its announcement was spoken; nothing was spoken.") == true,
      "\(lines)")
  }
}
