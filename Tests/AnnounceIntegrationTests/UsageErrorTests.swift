import Foundation
import Testing
import AnnouncerTesting

/// Every usage error is one line on standard error, because a screen reader reads every line.
extension CommandTests {
  static let nowhere = ["SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("announce.sock")]

  @Test(
    arguments: [
      (["--no-such-option", "x"], [:]),
      (["--rate"], [:]),
      (["--priority", "loud", "x"], [:]),
      (["--timeout", "abc", "x"], [:]),
      (["--rate", "500", "x"], [:]),
      (["--voice-type", "robot", "x"], [:]),
      (["x"], ["ANNOUNCE_PRIORITY": "loud"]),
      (["x"], ["ANNOUNCE_RATE": "fast"]),
      (["-", "-"], [:]),
      (["init", "tcsh"], [:]),
      (["init"], [:]),
      (["init", "bash", "zsh"], [:]),
      (["hook-finished"], [:]),
      (["hook-finished", "--status", "x", "--milliseconds", "1"], [:]),
      (["hook-finished", "--frobnicate"], [:]),
    ] as [([String], [String: String])])
  func aUsageErrorIsExactlyOneLine(arguments: [String], environment: [String: String]) throws {
    let result = try announce(arguments, environment: environment.merging(Self.nowhere) { a, _ in a })
    #expect(result.status == 64, "\(result.standardError)")
    let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 1, "\(result.standardError)")
    #expect(result.standardError.hasPrefix("announce: "), "\(result.standardError)")
    #expect(result.standardError.hasSuffix(" --help).\n"), "\(result.standardError)")
  }

  @Test func anOutOfRangeRateSaysSoInOneSentence() throws {
    let result = try announce(["--rate", "500", "x"], environment: Self.nowhere)
    #expect(
      result.standardError
        == "announce: --rate must be a whole number from -100 to 100, not 500 (see announce --help).\n")
  }

  @Test func helpAndVersionStillPrintAsBefore() throws {
    let help = try announce(["--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("USAGE: announce"))
    #expect(help.standardOutput.split(separator: "\n").count > 20)
    let initHelp = try announce(["init", "--help"])
    #expect(initHelp.status == 0)
    #expect(initHelp.standardOutput.contains("USAGE: announce init"))
    let version = try announce(["--version"])
    #expect(version.status == 0)
    let versionFile = TestStack.packageRoot.appendingPathComponent("VERSION")
    let expected = try String(contentsOf: versionFile, encoding: .utf8)
    #expect(version.standardOutput == expected)
  }
}
