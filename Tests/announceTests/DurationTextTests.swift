import ArgumentParser
import Testing

@testable import announce

/// Durations are read one way: by `--since`, `--timeout`, `--delay`, `--braille-flash`,
/// `ANNOUNCE_TIMEOUT`, `ANNOUNCE_MIN_SECONDS` (in `hook-finished` and in the shells' own
/// check, through `hook-threshold`) and tmux's `@announce-interval`.
@Suite struct DurationTextTests {
  @Test(arguments: [
    ("90", 90.0), ("90s", 90), ("1m", 60), ("30m", 1800), ("1h", 3600), ("1h30m", 5400), ("2d", 172_800),
    ("1.5h", 5400), ("2.5", 2.5), ("0", 0), (".5m", 30), ("1d2h3m4s", 93_784), ("45", 45),
  ])
  func readsADecimalNumberWithUnits(text: String, seconds: Double) {
    #expect(DurationText.seconds(in: text) == seconds)
    #expect(HistoryCommand.seconds(in: text) == seconds)
  }

  @Test(arguments: [
    "", "h", "1x", "soon", "0x10", "0x10m", "1e3", "1 h", " 1h", "1h ", "30m1h", "1h1h", "1..5", ".", "1h30",
    "+5", "inf", "nan", "1s1", "1ss",
  ])
  func refusesWhatIsNotOne(text: String) {
    #expect(DurationText.parse(text) == .failure(.malformed), "\(text)")
  }

  @Test(arguments: ["-1m", "-5", "-0"])
  func refusesANegativeOneAsNegative(text: String) {
    #expect(DurationText.parse(text) == .failure(.negative))
  }

  /// `--since -1m` was read as an option and answered "Missing value".
  @Test func sinceNamesANegativeDurationInOneSentence() throws {
    do {
      _ = try HistoryCommand.parse(["--since", "-1m"])
      Issue.record("--since -1m was accepted")
    } catch {
      let message = HistoryCommand.message(for: error)
      #expect(message.contains("cannot be negative"), "\(message)")
      #expect(!message.contains("\n"))
    }
    #expect(try HistoryCommand.parse(["--since", "1h30m"]).since == "1h30m")
    #expect(throws: (any Error).self) { try HistoryCommand.parse(["--since", "0x10m"]) }
  }

  @Test func theTimeoutReadsDurationsAndRefusesHexadecimal() throws {
    func timeout(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Double {
      try Announce.parse(arguments + ["Saved"]).request(environment: environment).defaults.retryTimeout
        .seconds
    }
    #expect(try timeout(["--timeout", "1m"]) == 60)
    #expect(try timeout([], ["ANNOUNCE_TIMEOUT": "1m30s"]) == 90)
    #expect(throws: (any Error).self) { try timeout([], ["ANNOUNCE_TIMEOUT": "0x10"]) }
    #expect(throws: (any Error).self) { try timeout(["--timeout", "0x10"]) }
  }

  /// `--braille-flash 0x10` ran 16 s and `1e1` 10 s (issue #39 item 7).
  @Test func theBrailleFlashReadsDurationsAndRefusesHexadecimalAndExponents() throws {
    func flash(_ value: String) throws -> Double? {
      try Announce.parse(["--braille", "--braille-flash", value, "Saved"]).braille.minimumFlash
    }
    #expect(try flash("1m") == 60)
    #expect(try flash("2.5") == 2.5)
    #expect(try flash("90s") == 90)
    for value in ["0x10", "1e1", "soon", "+5"] {
      #expect(throws: (any Error).self, "\(value)") { try flash(value) }
    }
    do {
      _ = try flash("0x10")
    } catch {
      let message = Announce.message(for: error)
      #expect(message.contains("not a duration"), "\(message)")
      #expect(!message.contains("\n"))
    }
    // A negative one is named by the range check, in one sentence.
    #expect {
      _ = try flash("-1")
    } throws: { Announce.message(for: $0) == "--braille-flash must be from 0 to 600 seconds." }
  }

  /// `ANNOUNCE_MIN_SECONDS=0x10` left a 15 s command unannounced: `Double` read it as 16.
  @Test func theShellHooksThresholdReadsDurationsAndCountsOthersAsUnset() {
    func minimum(_ text: String) -> Double {
      HookSettings(environment: ["ANNOUNCE_MIN_SECONDS": text]).minimumSeconds
    }
    #expect(minimum("1m") == 60)
    #expect(minimum("1h30m") == 5400)
    #expect(minimum("2.5") == 2.5)
    for text in ["0x10", "1e1", "-5", "soon", "inf"] { #expect(minimum(text) == 10, "\(text)") }
  }

  /// The shells' fast check compares the milliseconds `hook-threshold` prints, rounded
  /// down, so that it never holds back a command `hook-finished` would announce.
  @Test(arguments: [
    ("", 10_000), ("1m", 60_000), ("0x10", 10_000), ("1e1", 10_000), ("1.5", 1_500), ("0.0015", 1),
    ("90s", 90_000), ("2d", 172_800_000), ("-5", 10_000), ("99999999999d", 999_999_999_999),
  ])
  func theShellsAskForTheThresholdInMilliseconds(text: String, milliseconds: Int) {
    #expect(HookThreshold.milliseconds(of: text) == milliseconds)
  }
}
