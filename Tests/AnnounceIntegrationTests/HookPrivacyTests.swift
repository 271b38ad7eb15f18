import Foundation
import Testing

extension SpeakingTests.ShellHooks {
  /// fish's private mode keeps every line out of its history, so the hook neither speaks
  /// nor logs the command line, as bash does for a line that HISTCONTROL=ignorespace
  /// keeps out; the same shell without it names the command.
  @Test(.enabled(if: ShellSession.Shell.fish.path != nil), arguments: [true, false])
  func fishInPrivateModeNeitherSpeaksNorLogsTheCommandLine(isPrivate: Bool) throws {
    var environment = stack.clientEnvironment().filter { !Self.hookVariables.contains($0.key) }
    environment["ANNOUNCE_MIN_SECONDS"] = "1"
    let session = try ShellSession(
      .fish, setup: ["command $ANNOUNCE init fish | source"], environment: environment,
      options: isPrivate ? ["--private"] : [])
    defer { session.close() }
    #expect(session.waitUntilReady(), "fish showed no prompt: \(session.screen())")
    #expect(session.waitForPrompt { session.type("sleep 1.1 # secret-token") })
    #expect(session.wait(timeout: 20) { !spokenTexts(session).isEmpty }, "\(session.logEntries())")
    let expected = isPrivate ? "The command finished after 1 second" : "sleep 1.1 finished after 1 second"
    #expect(spokenTexts(session) == [expected])
    let log = (try? String(contentsOfFile: session.logPath, encoding: .utf8)) ?? ""
    #expect(isPrivate == !log.contains("sleep"), "\(log)")
    #expect(!log.contains("secret-token"), "\(log)")
  }
}
