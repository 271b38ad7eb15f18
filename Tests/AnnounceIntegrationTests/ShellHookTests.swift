import Foundation
import Testing

extension SpeakingTests {
  /// `announce init` in real interactive shells on a terminal (tmux), speaking through the
  /// test stack. These are nested in ``SpeakingTests`` so that only one test speaks at a time.
  ///
  /// The threshold is 1 second, so `sleep 1.2` qualifies. Here the prompt must come back
  /// before the announcement is heard; how soon it comes back is measured by `bench/run`.
  @Suite struct ShellHooks: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// The variables that the hook reads.
    static let hookVariables: Set<String> = [
      "ANNOUNCE_MIN_SECONDS", "ANNOUNCE_IGNORE", "ANNOUNCE_FORMAT_OK", "ANNOUNCE_FORMAT_FAIL",
      "ANNOUNCE_ON_INTERRUPT", "ANNOUNCE_TIMEOUT", "ANNOUNCE_ICON_OK", "ANNOUNCE_ICON_FAIL",
    ]

    /// Seconds of speech that `announce hook-finished` plays for a command that ended with `status`.
    func hookSpeechSeconds(status: Int32, _ extra: [String: String]) throws -> Double {
      let state = NSTemporaryDirectory() + "announce-hook-icons-\(getpid())"
      defer { try? FileManager.default.removeItem(atPath: state) }
      var environment = stack.clientEnvironment().filter { !Self.hookVariables.contains($0.key) }
      environment["XDG_STATE_HOME"] = state
      // Faster speech keeps the five runs short; the icons are sound files, not slowed by it.
      environment["ANNOUNCE_RATE"] = "100"
      environment.merge(extra) { _, new in new }
      let recording = try stack.record()
      let result = try Command.run(
        Command.announce,
        ["hook-finished", "--status", String(status), "--milliseconds", "20000", "--", "make"],
        environment: environment)
      let seconds = recording.stop()
      #expect(result.status == 0, "\(result.standardError)")
      return seconds
    }

    @Test func theOutcomesIconIsPlayedBeforeTheSentenceAndOnlyForThatOutcome() throws {
      let icons = ["ANNOUNCE_ICON_OK": "pisk-up.wav", "ANNOUNCE_ICON_FAIL": "prompt"]
      let plainFailure = try hookSpeechSeconds(status: 2, [:])
      let failure = try hookSpeechSeconds(status: 2, icons)
      #expect(failure > plainFailure + 0.1, "with icon \(failure) s, without \(plainFailure) s")
      let plainSuccess = try hookSpeechSeconds(status: 0, [:])
      let success = try hookSpeechSeconds(status: 0, icons)
      #expect(success > plainSuccess + 0.1, "with icon \(success) s, without \(plainSuccess) s")
      let wrongOutcome = try hookSpeechSeconds(status: 0, ["ANNOUNCE_ICON_FAIL": "prompt"])
      #expect(abs(wrongOutcome - plainSuccess) < 0.1, "\(wrongOutcome) s vs \(plainSuccess) s")
    }

    /// bash always; zsh and fish where they are installed.
    static let installedShells = ShellSession.Shell.allCases.filter { $0 == .bash || $0.path != nil }

    /// A shell whose start-up file runs `setup`, then sources the hook `times` times,
    /// then runs `after`, with `ANNOUNCE_MIN_SECONDS=1` in its environment unless
    /// `threshold` is false.
    func hookedShell(
      _ shell: ShellSession.Shell, setup: [String] = [], sourcingTimes times: Int = 1,
      after: [String] = [], threshold: Bool = true
    ) throws -> ShellSession {
      let line =
        shell == .fish
        ? "command $ANNOUNCE init fish | source" : "eval \"$(\"$ANNOUNCE\" init \(shell.rawValue))\""
      // The hook's variables of whoever runs the tests do not count.
      var environment = stack.clientEnvironment().filter { !Self.hookVariables.contains($0.key) }
      if threshold { environment["ANNOUNCE_MIN_SECONDS"] = "1" }
      let session = try ShellSession(
        shell, setup: setup + Array(repeating: line, count: times) + after, environment: environment)
      #expect(session.waitUntilReady(), "\(shell) showed no prompt: \(session.screen())")
      return session
    }

    /// The texts of the `spoken` lines in the session's log.
    func spokenTexts(_ session: ShellSession) -> [String] {
      session.logEntries().filter { $0["event"] as? String == "spoken" }.compactMap {
        $0["text"] as? String
      }
    }

    @Test(arguments: installedShells)
    func aLongCommandIsAnnouncedAndThePromptComesBackAtOnce(shell: ShellSession.Shell) throws {
      let session = try hookedShell(shell)
      defer { session.close() }
      let recording = try stack.record()
      #expect(session.waitForPrompt { session.type("sleep 1.2") })
      // The prompt is back while the announcement is still to come: nothing is logged yet.
      #expect(spokenTexts(session).isEmpty, "the prompt waited for the speech")
      let heard = session.wait(timeout: 20) { !spokenTexts(session).isEmpty }
      let speech = recording.stop()
      #expect(heard, "nothing was logged: \(session.logEntries())")
      #expect(spokenTexts(session) == ["sleep 1.2 finished after 1 second"])
      #expect(speech > 0.8, "\(speech) s of speech")
      // No job-control noise such as "[1] 12345" or "Done".
      let screen = session.screen()
      #expect(
        !screen.contains("[1]") && !screen.contains("Done") && !screen.contains("has ended"), "\(screen)")
    }

    @Test(arguments: installedShells)
    func theStatusThePipeStatusAndTheUsersOwnPromptHookAreKept(shell: ShellSession.Shell) throws {
      let session = try hookedShell(shell)
      defer { session.close() }
      let (pipeline, check) =
        switch shell {
        case .bash: ("false | true | (exit 3)", #"echo "next $? ${PIPESTATUS[*]}" >> "$PROMPTS""#)
        case .zsh: ("false | true | (exit 3)", #"print -r -- "next $? ${pipestatus[*]}" >> $PROMPTS"#)
        case .fish: ("false | true | sh -c 'exit 3'", #"echo "next $status $pipestatus" >> $PROMPTS"#)
        }
      #expect(session.waitForPrompt { session.type(pipeline) })
      #expect(session.waitForPrompt { session.type(check) })
      let lines = session.promptLines()
      let next = try #require(lines.firstIndex { $0.hasPrefix("next ") }, "\(lines)")
      #expect(lines[next] == "next 3 1 0 3", "\(lines)")
      // The user's own prompt hook still runs after announce's, and sees both.
      let prompt = try #require(lines[..<next].last { $0.hasPrefix("prompt ") })
      #expect(prompt.split(separator: " ").dropFirst(2) == ["3", "1", "0", "3"], "\(lines)")
    }

    @Test(arguments: installedShells)
    func theHooksVariablesWorkWithoutBeingExported(shell: ShellSession.Shell) throws {
      let setup =
        shell == .fish
        ? ["set -g ANNOUNCE_MIN_SECONDS 1", "set -g ANNOUNCE_FORMAT_OK 'Done: {command}'"]
        : ["ANNOUNCE_MIN_SECONDS=1", "ANNOUNCE_FORMAT_OK='Done: {command}'"]
      let session = try hookedShell(shell, setup: setup, threshold: false)
      defer { session.close() }
      #expect(session.waitForPrompt { session.type("sleep 1.1") })
      #expect(session.wait(timeout: 20) { !spokenTexts(session).isEmpty })
      #expect(spokenTexts(session) == ["Done: sleep 1.1"])
    }

    @Test(arguments: installedShells)
    func sourcingTheHookTwiceAnnouncesOnce(shell: ShellSession.Shell) throws {
      let session = try hookedShell(shell, sourcingTimes: 2)
      defer { session.close() }
      #expect(session.waitForPrompt { session.type("sleep 1.1") })
      #expect(session.waitForPrompt { session.type("sleep 1.2") })
      // The hooks of the first command started before the second's, so they speak first.
      #expect(session.wait(timeout: 20) { spokenTexts(session).contains { $0.hasPrefix("sleep 1.2") } })
      #expect(
        spokenTexts(session) == ["sleep 1.1 finished after 1 second", "sleep 1.2 finished after 1 second"])
    }

    @Test(arguments: installedShells)
    func interactiveProgramsAndControlCAreNotAnnounced(shell: ShellSession.Shell) throws {
      let session = try hookedShell(shell)
      defer { session.close() }
      var lessShowedTheFile = false
      let lessEnded = session.waitForPrompt {
        session.type("less /etc/passwd")
        lessShowedTheFile = session.wait(timeout: 5) { session.screen().contains("root:") }
        Thread.sleep(forTimeInterval: 1.3)  // less stays open past the threshold
        session.press("q")
      }
      #expect(lessShowedTheFile && lessEnded, "\(session.screen())")
      #expect(
        session.waitForPrompt {
          session.type("sleep 5")
          Thread.sleep(forTimeInterval: 1.3)  // past the threshold, then interrupted
          session.press("C-c")
        })
      // A failing command after them is announced, and nothing else was.
      #expect(session.waitForPrompt { session.type("sleep 1.1; false") })
      #expect(session.wait(timeout: 20) { !spokenTexts(session).isEmpty })
      let logged = session.logEntries().compactMap { $0["text"] as? String }
      #expect(logged == ["sleep 1.1 failed with status 1 after 1 second"], "\(logged)")
    }

    /// The shells' own check read `1m` and `0x10` as 0, and started `hook-finished` after
    /// every command (issue #39 item 7). It reads the threshold as announce does, through
    /// `announce hook-threshold`: a wrapper in announce's place notes what the hook starts.
    @Test(arguments: installedShells)
    func theShellsCheckReadsTheThresholdAsAnnounceDoes(shell: ShellSession.Shell) throws {
      let wrapper = NSTemporaryDirectory() + "announce-wrapper-\(getpid())-\(shell.rawValue)"
      try "#!/bin/sh\necho \"$1\" >> \"$PROMPTS.calls\"\nexec \"$ANNOUNCE\" \"$@\"\n".write(
        toFile: wrapper, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
      defer { try? FileManager.default.removeItem(atPath: wrapper) }
      func set(_ value: String) -> String {
        shell == .fish ? "set -g ANNOUNCE_MIN_SECONDS \(value)" : "ANNOUNCE_MIN_SECONDS=\(value)"
      }
      let session = try hookedShell(
        shell,
        after: [
          shell == .fish ? "set -g __announce_bin \(wrapper)" : "__announce_bin=\(wrapper)", set("1m"),
        ],
        threshold: false)
      defer { session.close() }
      // Under a minute, and under the 10 seconds that 0x10 (no duration) stands for.
      #expect(session.waitForPrompt { session.type("sleep 1.2") })
      #expect(session.waitForPrompt { session.type(set("0x10")) })
      #expect(session.waitForPrompt { session.type(set("1")) })
      #expect(session.waitForPrompt { session.type("sleep 1.1") })
      #expect(session.wait(timeout: 20) { !spokenTexts(session).isEmpty })
      #expect(spokenTexts(session) == ["sleep 1.1 finished after 1 second"])
      let calls = ((try? String(contentsOfFile: session.promptsPath + ".calls", encoding: .utf8)) ?? "")
        .split(separator: "\n")
      #expect(calls.filter { $0 == "hook-finished" }.count == 1, "\(calls)")
      // Asked once for each value, never at a prompt where it did not change.
      #expect(calls.filter { $0 == "hook-threshold" }.count == 3, "\(calls)")
    }
  }
}
