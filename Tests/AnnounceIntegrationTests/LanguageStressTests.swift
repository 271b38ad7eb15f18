import Foundation
import Testing

extension SpeakingTests {
  /// The language chosen once at start holds under load (issue #46): a flood spoken in
  /// French under a German locale, with braille and the history on, while flood control
  /// words its summaries in French on the queue's task, braille words its lines, and the
  /// history's writer, the stdin reader and libspeechd's thread all run. announce used to
  /// switch the locale and `LANGUAGE` for each French lookup, under all of them.
  @Suite struct LanguageStressTests: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// English phrases of the lines `--verbose` and the run print, none of which may
    /// appear in a German line.
    static let english = [
      "speaking", "spoken after", "gave up", "interrupted", "waiting", "merged into it",
      "braille display", "Connected to", "Skipped", "Not delivered", "forwarded over SSH",
      "seconds", "skipped",
    ]
    /// French words of the spoken summary, which belong to the speech only.
    static let french = ["ignoré", "seconde", "annonce"]

    @Test func aFrenchFloodUnderAGermanLocalePrintsOnlyGermanAndStaysUp() throws {
      let brltty = try PrivateBrltty()
      try brltty.startScreenReader(showing: "screen reader line")
      let state = NSTemporaryDirectory() + "announce-stress-\(getpid())-\(UUID().uuidString.prefix(6))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      let environment = try TestLanguages.environment(
        brltty.stack.clientEnvironment(stack.clientEnvironment(["XDG_STATE_HOME": state])),
        locale: "de_DE.UTF-8"
      ).filter { !$0.key.hasPrefix("ANNOUNCE_") }
      let lines = (1...80).map { "Zeile \($0)" }
      let result = try Command.run(
        Command.announce,
        [
          "--verbose", "--braille", "--language", "fr", "--max-queue", "3", "--rate", "100", "--timeout", "1",
        ],
        environment: environment, input: lines.joined(separator: "\n") + "\n", timeout: 150)
      // It ended by itself, with every line delivered or some given up: no crash, no signal.
      #expect([0, 1].contains(result.status), "\(result.status): \(result.standardError.suffix(2000))")
      let printed = result.standardError.split(separator: "\n").map(String.init)
      #expect(printed.count > 20, "\(printed)")
      for line in printed {
        // The announcement's own words are in quotes; the rest is announce's.
        let own = line.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
          .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
        #expect(!Self.english.contains { own.contains($0) }, "English in: \(line)")
        #expect(!Self.french.contains { own.contains($0) }, "French in: \(line)")
      }
      #expect(printed.contains { $0.contains("gesprochen nach") }, "\(printed)")
      #expect(printed.contains { $0.contains("Braillezeile") }, "\(printed)")
      // The history took every line, whatever became of it.
      let history = try Command.run(
        Command.announce, ["history", "--json", "-n", "200"], environment: environment)
      for line in lines {
        #expect(history.standardOutput.contains("\"\(line)\""), "\(line) has no record")
      }
    }
  }
}
