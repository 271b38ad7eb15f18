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

  /// A combining mark or joiner after a control character belongs to no letter; joined
  /// after the space that took the control character's place, it made that space a
  /// character of its own, which the next reading took for white space and dropped, so a
  /// name was not spoken as it read. The fuzz target `tmux-alert` found it (its seed
  /// `orphan-mark`).
  @Test func aMarkLeftAloneByAControlCharacterIsLeftOut() {
    for orphan in ["\u{032C}", "\u{200D}", "\u{0301}\u{0301}"] {
      let spoken = TmuxAlertSentence.spoken("build\u{08}\(orphan)done")
      #expect(spoken == "build done", "\(orphan.unicodeScalars.map { $0.value })")
      #expect(TmuxAlertSentence.spoken(spoken) == spoken)
    }
    #expect(TmuxAlertSentence.spoken("caf\u{0065}\u{0301} ok") == "caf\u{0065}\u{0301} ok")
  }
}
