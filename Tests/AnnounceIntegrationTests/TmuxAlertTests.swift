import Foundation
import Testing

extension SpeakingTests {
  /// `announce init tmux` in a real tmux server on a private `-L` socket, with the test
  /// stack's `SPEECHD_ADDRESS` in the server's environment: the hooks run announce from
  /// tmux's `run-shell`, with no terminal. Nested in ``SpeakingTests`` so that the log and
  /// the recording hold only this suite's speech.
  ///
  /// Windows ring the bell or print a line each time Enter is pressed in them, with the
  /// terminal's echo off, so that nothing else shows up as activity. Each test waits on
  /// announce's log and on the end of every process of its copy of announce, never for
  /// a fixed time, so that an alert spoken wrongly is in the log when it is checked.
  @Suite struct TmuxAlerts: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    static let bells = "stty -echo; while read x; do printf '\\a'; done"
    static let lines = "stty -echo; while read x; do echo \"line $x\"; done"

    @Test func aBellAndOutputInWindowsNobodyViewsAreSpokenOnceAndTheViewedWindowsBellIsNot() throws {
      // A minute, so that the second bell surely comes within it on a loaded machine.
      let tmux = try PrivateTmux(
        environment: stack.clientEnvironment(), frontCommand: Self.bells,
        extraConfiguration: ["set -g @announce-interval 60"])
      defer { tmux.close() }
      #expect(tmux.attachClient(to: "main"), "no client attached")
      // Made while the client views them, so that their making is no alert; then back to 0.
      tmux.run(["new-window", "-t", "main:1", "-n", "build", "--", "sh", "-c", Self.bells])
      tmux.run(["new-window", "-t", "main:2", "-n", "logs", "--", "sh", "-c", Self.lines])
      tmux.run(["select-window", "-t", "main:0"])
      #expect(tmux.display("#{window_active_clients}", in: "main:0") == "1")

      let recording = try stack.record()
      tmux.pressEnter(in: "main:0")
      let firstBell = Date()
      tmux.pressEnter(in: "main:1")
      #expect(tmux.wait { !tmux.spokenTexts().isEmpty }, "nothing was spoken: \(tmux.log())")
      #expect(tmux.display("#{window_bell_flag}", in: "main:1") == "1")
      tmux.pressEnter(in: "main:1")
      let secondBell = Date().timeIntervalSince(firstBell)
      tmux.pressEnter(in: "main:2")
      #expect(tmux.waitUntilSpokenAndDone(count: 2), "\(tmux.log())")
      let speech = recording.stop()
      #expect(
        tmux.spokenTexts() == ["Bell in window 1, build.", "Activity in window 2, logs."], "\(tmux.log())")
      #expect(secondBell < 60, "the second bell came \(secondBell) s after the first")
      #expect(speech > 1.0, "only \(speech) s of speech was recorded")
    }

    @Test func severalSessionsAreNamedAndAWindowInTwoSessionsIsSpokenOnce() throws {
      let tmux = try PrivateTmux(environment: stack.clientEnvironment(), frontCommand: Self.bells)
      defer { tmux.close() }
      #expect(tmux.attachClient(to: "main"), "no client attached")
      let name = "it's $(touch pwned) \"tests\"\nnext"
      tmux.run(["new-session", "-d", "-s", "other", "-n", name, "--", "sh", "-c", Self.bells])
      // Made in the background: tmux counts that as its activity, which is not spoken, and
      // raises no other until someone has looked at it; its bell comes after the others.
      tmux.run(["new-window", "-d", "-t", "other:1", "-n", "last", "--", "sh", "-c", Self.bells])
      // The bells' window is in both sessions; nobody views it in either.
      tmux.run(["link-window", "-d", "-s", "other:0", "-t", "main:5"])
      #expect(tmux.display("#{window_linked_sessions}", in: "main:5") == "2")

      tmux.pressEnter(in: "other:0")
      #expect(tmux.wait { !tmux.spokenTexts().isEmpty }, "nothing was spoken: \(tmux.log())")
      tmux.pressEnter(in: "other:1")
      #expect(tmux.waitUntilSpokenAndDone(count: 2), "\(tmux.log())")
      let spoken = tmux.spokenTexts()
      let bells = [
        "Bell in window 0 of session other, it's $(touch pwned) \"tests\" next.",
        "Bell in window 5 of session main, it's $(touch pwned) \"tests\" next.",
      ]
      #expect(spoken.count == 2 && bells.contains(spoken[0]), "\(tmux.log())")
      #expect(spoken.last == "Bell in window 1 of session other, last.", "\(tmux.log())")
      #expect(!FileManager.default.fileExists(atPath: tmux.directory + "/pwned"))
      #expect(
        !FileManager.default.fileExists(
          atPath: FileManager.default.currentDirectoryPath + "/pwned"))
    }
    @Test func aWindowThatFallsSilentAfterItsOutputIsSpokenAndANewIdleWindowIsNot() throws {
      let tmux = try PrivateTmux(
        environment: stack.clientEnvironment(), frontCommand: Self.bells,
        extraConfiguration: ["set -wg monitor-silence 2"])
      defer { tmux.close() }
      #expect(tmux.attachClient(to: "main"), "no client attached")
      // Both made in the background. The first prints at once, as a shell's prompt does,
      // and falls silent first; the second prints for three seconds.
      tmux.run([
        "new-window", "-d", "-t", "main:1", "-n", "idle", "--", "sh", "-c", "echo '$ '; exec sleep 600",
      ])
      tmux.run([
        "new-window", "-d", "-t", "main:2", "-n", "job", "--", "sh", "-c",
        "for i in 1 2 3 4; do echo $i; sleep 1; done; exec sleep 600",
      ])
      #expect(tmux.waitUntilSpokenAndDone(count: 1), "nothing was spoken: \(tmux.log())")
      #expect(tmux.spokenTexts() == ["Silence in window 2, job."], "\(tmux.log())")
      #expect(
        tmux.display("#{window_silence_flag}", in: "main:1") == "1", "the idle window was not silent yet")
    }
    @Test func theServersAnnounceVariablesApplyAndAnInvalidOneIsLogged() throws {
      let tmux = try PrivateTmux(
        environment: stack.clientEnvironment(), frontCommand: Self.bells,
        announceVariables: ["ANNOUNCE_RATE": "fast"])
      defer { tmux.close() }
      tmux.run(["new-window", "-d", "-t", "main:1", "-n", "build", "--", "sh", "-c", Self.bells])
      tmux.pressEnter(in: "main:1")
      #expect(
        tmux.wait { !tmux.texts(of: "error").isEmpty && tmux.runningAnnounces() == 0 },
        "nothing was logged: \(tmux.log())")
      #expect(tmux.spokenTexts().isEmpty)
      let errors = tmux.texts(of: "error")
      #expect(errors.count == 1, "\(tmux.log())")
      #expect(
        errors.first?.hasPrefix(
          "The tmux hook could not announce \"Bell in window 1, build.\": ANNOUNCE_RATE=fast")
          == true, "\(errors)")
    }
  }
}
