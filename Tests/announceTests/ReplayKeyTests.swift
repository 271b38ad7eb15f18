import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// `--replay-key`: only keys of the documented grammar reach a shell's start-up.
@Suite struct ReplayKeyTests {
  @Test(arguments: ["\\er", "^[r", "\\C-xr", "\\M-r", "\\cr", "\\e\\C-r", "^X^R", "x", "\\e[24~", "@"])
  func aKeyOfTheGrammarIsTaken(key: String) {
    #expect(ReplayBinding.accepts(key), "\(key)")
  }

  /// `\e\` was taken, and its last backslash quoted the closing `"` of bash's `bind`.
  @Test(arguments: [
    "\\e\\", "\\", "\\x", "\\C-", "^", "^1", "a b", "'", "\"", "$x", "`r`", "é", "", "\\e\\\\",
  ])
  func anythingElseIsRefused(key: String) {
    #expect(!ReplayBinding.accepts(key), "\(key)")
    #expect(throws: (any Error).self) { try ShellInit.parse(["bash", "--replay-key", key]) }
  }
}

/// A relative `HOME` put the log in whatever directory announce ran in.
@Suite struct RelativeHomeTests {
  func parse(_ environment: [String: String]) throws -> AnnounceRequest {
    try Announce.parse(["Saved"]).request(environment: environment)
  }

  @Test func aRelativeHomeIsAUsageErrorNamingItUnlessTheLogHasAnotherPlace() throws {
    do {
      _ = try parse(["HOME": "."])
      Issue.record("HOME=. was accepted")
    } catch {
      #expect(Announce.exitCode(for: error).rawValue == 64)
      #expect(Announce.message(for: error).hasPrefix("HOME=. is not an absolute path"))
    }
    _ = try parse(["HOME": ".", "XDG_STATE_HOME": "\(testRoot)/tmp/state"])
    _ = try parse(["HOME": ".", "ANNOUNCE_HISTORY": "off"])
    _ = try parse(["HOME": "\(testRoot)/home/someone"])
  }
}
