import Foundation
import Testing

extension SpeakingTests {
  /// `announce history` and `announce replay` on the real stack, and the replay key of
  /// `announce init` in real shells in tmux.
  @Suite struct HistoryAndReplay: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// Runs `arguments` with the state (and so the log) in `state`.
    func announce(_ arguments: [String], state: String) throws -> Command.Result {
      try Command.run(
        Command.announce, arguments, environment: stack.clientEnvironment(["XDG_STATE_HOME": state]))
    }

    func freshState() -> String {
      NSTemporaryDirectory() + "announce-history-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

    @Test func anAnnouncementThatRanOutOfTimeIsListedAsMissedReplayedAndThenNoLongerMissed() async throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let interrupter = try await Interrupter(stack: stack)
      // Long enough not to be over before the interruption comes, and the interruption
      // sent once ours is heard: under load its sound began 2 s after the attempt (see
      // Recording.waitForSpeech), past a timeout of 2 s.
      let text = "Deploy finished, and every service answered its health check"
      let listening = try stack.record()
      let running = try Running(
        Command.announce, ["--verbose", "--timeout", "5", text],
        environment: stack.clientEnvironment(["XDG_STATE_HOME": state]))
      #expect(running.waitForOutput(containing: "attempt 1"))
      #expect(listening.waitForSpeech(), "ours was never heard")
      // A long interruption, far past the timeout of 5 seconds.
      let id = try await interrupter.say(Self.long)
      let result = running.wait()
      _ = listening.stop()
      #expect(result.status == 1, "\(result.standardError)")
      _ = await interrupter.finalEvent(of: id)
      await interrupter.close()

      let missed = try announce(["history", "--missed"], state: state)
      #expect(missed.status == 0, "\(missed.standardError)")
      #expect(
        missed.standardOutput.hasSuffix(" ago, not heard (interrupted): \(text)\n"),
        "\(missed.standardOutput)")
      #expect(missed.standardOutput.split(separator: "\n").count == 1)

      let recording = try stack.record()
      let replay = try announce(["replay"], state: state)
      let speech = recording.stop()
      #expect(replay.status == 0, "\(replay.standardError)")
      #expect(speech > 0.5, "\(speech) s of speech")

      let after = try announce(["history", "--missed"], state: state)
      #expect(after.standardOutput == "No announcement was missed.\n")
      let listed = try announce(["history", "-n", "2"], state: state).standardOutput.split(separator: "\n")
      #expect(listed.first?.hasSuffix(" ago, heard on replay: \(text)") == true, "\(listed)")
      #expect(listed.last?.hasSuffix(" ago, not heard (interrupted): \(text)") == true, "\(listed)")
      let again = try announce(["replay"], state: state)
      #expect(again.status == 0)
      #expect(
        again.standardOutput.hasPrefix("Nothing was missed since the last replay, "),
        "\(again.standardOutput)")
      let json = try announce(["history", "--json", "-n", "1"], state: state).standardOutput
      let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
      #expect(object?["event"] as? String == "spoken" && object?["replays"] is String, "\(json)")
    }

    @Test func historyOffRecordsNothing() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      #expect(try announce(["--no-history", "Saved"], state: state).status == 0)
      let environment = stack.clientEnvironment(["XDG_STATE_HOME": state, "ANNOUNCE_HISTORY": "off"])
      #expect(try Command.run(Command.announce, ["Saved"], environment: environment).status == 0)
      #expect(!FileManager.default.fileExists(atPath: state + "/announce/log.jsonl"))
      let history = try announce(["history"], state: state)
      #expect(history.status == 0)
      #expect(history.standardOutput == "Nothing is recorded yet in \(state)/announce/log.jsonl.\n")
    }

    @Test func aLogThatCannotBeWrittenIsSaidOnceAndChangesNothingElse() throws {
      let file = freshState()
      defer { try? FileManager.default.removeItem(atPath: file) }
      // A state "directory" that is a file: nothing can be made under it.
      #expect(FileManager.default.createFile(atPath: file, contents: Data()))
      let result = try announce(["One", "Two", "Three"], state: file)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(
        result.standardError
          == "The outcome log \(file)/announce/log.jsonl cannot be written (Not a directory), so outcomes are not "
          + "logged; make \(file)/announce writable, or set XDG_STATE_HOME to a directory that is.\n")
    }

    @Test func twoReplaysAtOnceSpeakEachMissedAnnouncementOnce() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      try FileManager.default.createDirectory(atPath: state + "/announce", withIntermediateDirectories: true)
      let missed = (1...3).map { index in
        #"{"event":"gave-up","id":1,"text":"Missed number \#(index)","attempt":1,"time":2.0,"reason":"no-retry","key":"seed-\#(index)","priority":"text","at":"2026-01-01T00:00:00.000Z","pid":1}"#
      }
      try (missed.joined(separator: "\n") + "\n").write(
        toFile: state + "/announce/log.jsonl", atomically: false, encoding: .utf8)
      let environment = stack.clientEnvironment(["XDG_STATE_HOME": state, "ANNOUNCE_RATE": "100"])
      let first = try Running(Command.announce, ["replay"], environment: environment)
      let second = try Running(Command.announce, ["replay"], environment: environment)
      let results = [first.wait(), second.wait()]
      #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.standardError))")
      let log = try String(contentsOfFile: state + "/announce/log.jsonl", encoding: .utf8)
      let replays = log.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["replays"] as? String
      }
      #expect(replays.sorted() == ["seed-1", "seed-2", "seed-3"], "\(log)")
    }

    /// bash always; zsh and fish where they are installed.
    static let installedShells = ShellSession.Shell.allCases.filter { $0 == .bash || $0.path != nil }

    @Test(arguments: installedShells)
    func theReplayKeySpeaksWhatWasMissedAndLeavesTheLineBeingEditedAsItWas(shell: ShellSession.Shell) throws {
      let line =
        shell == .fish
        ? "command $ANNOUNCE init fish --replay-key '\\er' | source"
        : "eval \"$(\"$ANNOUNCE\" init \(shell.rawValue) --replay-key '\\er')\""
      let session = try ShellSession(shell, setup: [line], environment: stack.clientEnvironment())
      defer { session.close() }
      #expect(session.waitUntilReady(), "\(shell) showed no prompt: \(session.screen())")
      let missed =
        #"{"event":"gave-up","id":1,"text":"The deploy failed","attempt":1,"time":2.0,"reason":"interrupted-out-of-time","key":"seed-1","priority":"text","at":"2026-01-01T00:00:00.000Z","pid":1}"#
      try FileManager.default.createDirectory(
        atPath: session.directory + "/state/announce", withIntermediateDirectories: true)
      try (missed + "\n").write(toFile: session.logPath, atomically: false, encoding: .utf8)

      session.press("echo kept line")
      #expect(session.wait { session.screen().contains("$ echo kept line") })
      let recording = try stack.record()
      session.press("M-r")
      let replayed = session.wait(timeout: 20) {
        session.logEntries().contains {
          $0["replays"] as? String == "seed-1" && $0["event"] as? String == "spoken"
        }
      }
      let speech = recording.stop()
      #expect(replayed, "no replay was logged: \(session.logEntries())")
      #expect(speech > 0.5, "\(speech) s of speech")
      // The line being edited is still there, and runs when Enter is pressed.
      let screen = session.screen()
      #expect(screen.contains("$ echo kept line"), "\(screen)")
      #expect(!screen.contains("[1]") && !screen.contains("has ended"), "\(screen)")
      #expect(session.waitForPrompt { session.press("Enter") })
      #expect(
        session.screen().split(separator: "\n").contains { $0 == "kept line" }, "\(session.screen())")
    }
  }
}
