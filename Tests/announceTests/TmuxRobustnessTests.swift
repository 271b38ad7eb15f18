import Foundation
import Testing

@testable import announce

/// tmux alerts hold up against odd values and a clock that steps back.
@Suite struct TmuxRobustnessTests {
  /// A session called `-work` made the parser answer "Missing value", so every alert was lost.
  @Test func valuesThatLookLikeOptionsArePassedInTheWordsOfTheirOptions() throws {
    let text = TmuxHooks.configuration(announce: "/usr/bin/announce")
    #expect(text.contains("--session='#{"), "\(text)")
    #expect(text.contains("--interval='#{"), "\(text)")
    #expect(!text.contains("--session '"), "\(text)")
    let alert = try TmuxAlert.parse([
      "bell", "--server", "1", "--window", "@2", "--index", "3", "--interval=-5", "--session=-work",
      "--sessions", "2", "--", "-n",
    ])
    #expect(alert.session == "-work" && alert.interval == "-5" && alert.windowName == "-n")
  }

  @Test func aTimeFromTheFutureHoldsNothingBack() throws {
    let directory = NSTemporaryDirectory() + "announce-tmux-clock-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let limit = AlertRateLimit(path: directory + "/tmux-alerts")
    #expect(limit.admits("k", now: 100_000, interval: 3600))
    #expect(!limit.admits("k", now: 100_010, interval: 3600))
    // The clock stepped back by a minute: the entry was written in its future.
    #expect(limit.admits("k", now: 99_940, interval: 3600))
    #expect(!limit.admits("k", now: 99_941, interval: 3600))
  }
}
