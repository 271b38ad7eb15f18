import ArgumentParser
import Testing

@testable import announce

/// Durations are read one way: by `--since`, `--timeout`, `--delay` and `ANNOUNCE_TIMEOUT`.
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
}
