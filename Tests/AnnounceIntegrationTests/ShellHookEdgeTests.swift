import Foundation
import Testing

/// The hooks under the user's own strict settings, and their edge cases: errexit and
/// ERR traps, lines kept out of the history, odd thresholds, huge lines, pipelines.
extension SpeakingTests.ShellHooks {
  /// bash and zsh: the shells with errexit and an ERR trap of the user's.
  static let errexitShells = installedShells.filter { $0 != .fish }
  /// zsh and fish: the shells that can keep a line out of the history. A closure in the
  /// attribute itself crashes Swift 6.0.3's type checker, hence the name.
  static let historyHidingShells = installedShells.filter { $0 != .bash }

  @Test(arguments: errexitShells)
  func theHookIsInvisibleToErrexitAndToTheUsersERRTrap(shell: ShellSession.Shell) throws {
    let setup =
      shell == .bash
      ? [#"trap 'echo err >> "$PROMPTS"' ERR"#, "set -e"]
      : [#"TRAPZERR() { print -r -- err >> $PROMPTS; }"#, "setopt ERR_EXIT"]
    let session = try hookedShell(shell, setup: setup)
    defer { session.close() }
    // `!` makes the status 1 without counting as a failure: the shell must stay.
    #expect(session.waitForPrompt { session.type("! true") })
    #expect(session.waitForPrompt { session.type(#"echo alive >> "$PROMPTS""#) })
    let strict = session.promptLines()
    #expect(strict.contains("alive"), "the shell closed: \(strict)")
    #expect(!strict.contains("err"), "\(strict)")
    // One failing command runs the user's trap once, not once more for the hook.
    let relax = shell == .bash ? "set +e" : "unsetopt ERR_EXIT"
    #expect(session.waitForPrompt { session.type(relax) })
    #expect(session.waitForPrompt { session.type("false") })
    #expect(session.waitForPrompt { session.type(#"echo done >> "$PROMPTS""#) })
    let lines = session.promptLines()
    #expect(lines.filter { $0 == "err" }.count == 1, "\(lines)")
  }

  @Test(arguments: historyHidingShells)
  func aLineKeptOutOfTheHistoryIsNotSpokenOrLogged(shell: ShellSession.Shell) throws {
    // fish keeps such lines out of its history always; zsh with HIST_IGNORE_SPACE.
    let session = try hookedShell(shell, setup: shell == .zsh ? ["setopt HIST_IGNORE_SPACE"] : [])
    defer { session.close() }
    #expect(session.waitForPrompt { session.type(" sleep 1.2; true mysecret") })
    #expect(session.wait(timeout: 20) { !spokenTexts(session).isEmpty })
    #expect(spokenTexts(session) == ["The command finished after 1 second"])
    let log = (try? String(contentsOfFile: session.logPath, encoding: .utf8)) ?? ""
    #expect(!log.contains("mysecret") && !log.contains("sleep"), "\(log)")
  }

  @Test func withoutHistIgnoreSpaceZshSpeaksALineWithALeadingSpace() throws {
    guard ShellSession.Shell.zsh.path != nil else { return }
    let session = try hookedShell(.zsh)
    defer { session.close() }
    #expect(session.waitForPrompt { session.type(" sleep 1.2") })
    #expect(session.wait(timeout: 20) { !spokenTexts(session).isEmpty })
    #expect(spokenTexts(session) == ["sleep 1.2 finished after 1 second"])
  }

  @Test(arguments: installedShells)
  func aThresholdWithALeadingZeroIsDecimalAndQuiet(shell: ShellSession.Shell) throws {
    let setup = shell == .fish ? ["set -g ANNOUNCE_MIN_SECONDS 08"] : ["ANNOUNCE_MIN_SECONDS=08"]
    let session = try hookedShell(shell, setup: setup, threshold: false)
    defer { session.close() }
    #expect(session.waitForPrompt { session.type("sleep 1.1") })
    #expect(session.waitForPrompt { session.type("true") })
    let screen = session.screen()
    #expect(!screen.contains("value too great") && !screen.contains("error"), "\(screen)")
  }

  @Test(arguments: installedShells)
  func aFailedPipelineIsNamedAfterThePartThatFailed(shell: ShellSession.Shell) throws {
    let session = try hookedShell(shell)
    defer { session.close() }
    #expect(session.waitForPrompt { session.type("sleep 1.1; true | false") })
    #expect(session.wait(timeout: 20) { !spokenTexts(session).isEmpty })
    #expect(spokenTexts(session) == ["false failed with status 1 after 1 second"])
  }

  @Test func aCommandLineOver128KiBIsStillAnnounced() throws {
    let session = try hookedShell(.bash)
    defer { session.close() }
    // `history -s` puts a 140,000-character line in the history as the command's own,
    // which is where the bash hook reads it; passed whole, exec would fail with E2BIG.
    #expect(
      session.waitForPrompt {
        session.type(#"history -s "sleep 1.2 $(printf '%0140000d' 0)"; sleep 1.2"#)
      })
    #expect(session.wait(timeout: 20) { !spokenTexts(session).isEmpty })
    #expect(spokenTexts(session) == ["sleep 1.2 finished after 1 second"])
  }
}
