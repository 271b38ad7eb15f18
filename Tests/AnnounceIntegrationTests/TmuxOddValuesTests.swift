import Foundation
import Testing

extension SpeakingTests.TmuxAlerts {
  /// A session named `-work` was passed as `--session -work`, which the parser took for
  /// an option: every alert of that server was lost. A negative `@announce-interval`
  /// counts as the default.
  @Test func aSessionNamedLikeAnOptionAndANegativeIntervalStillAnnounce() throws {
    let tmux = try PrivateTmux(
      environment: stack.clientEnvironment(), frontCommand: Self.bells,
      extraConfiguration: ["set -g @announce-interval -5"])
    defer { tmux.close() }
    tmux.run(["new-session", "-d", "-s", "-work", "-n", "build", "--", "sh", "-c", Self.bells])
    #expect(tmux.display("#{session_name}", in: "-work:0") == "-work")
    tmux.pressEnter(in: "-work:0")
    #expect(tmux.waitUntilSpokenAndDone(count: 1), "nothing was spoken: \(tmux.log())")
    #expect(tmux.spokenTexts() == ["Bell in window 0 of session -work, build."], "\(tmux.log())")
    #expect(tmux.texts(of: "error").isEmpty, "\(tmux.log())")
  }
}
