import Foundation
import Testing

@testable import announce

/// Missed announcements carried into a new file at a rotation are listed and replayed in
/// the order of their time, not as newer than the records of the older file.
@Suite struct HistoryOrderTests {
  /// A record stamped `minute` minutes after 10:00.
  func record(_ event: String, key: String, minute: Int) -> String {
    let reason = event == "gave-up" ? "\"reason\":\"stalled\"," : ""
    let at = "2026-11-22T10:\(minute < 10 ? "0" : "")\(minute):00.000Z"
    return
      "{\"event\":\"\(event)\",\"text\":\"Text \(key)\",\(reason)\"key\":\"\(key)\",\"at\":\"\(at)\",\"pid\":1}"
  }

  @Test func carriedMissedAnnouncementsKeepTheirPlaceInTime() throws {
    let directory = NSTemporaryDirectory() + "announce-order-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // Room for about four records a file: two rotations carry m1 forward.
    let log = OutcomeLog(path: directory + "/state/log.jsonl", bound: 560)
    #expect(log.append(record("gave-up", key: "m1", minute: 1)))
    for minute in 2...13 { #expect(log.append(record("spoken", key: "s\(minute)", minute: minute))) }
    #expect(log.append(record("gave-up", key: "m2", minute: 14)))
    let lines = log.lines()
    let carried = try #require(lines.firstIndex { $0.contains("\"m1\"") })
    #expect(carried > 0, "m1 was not carried into a later place in the log: \(lines)")
    let history = History(log: log)
    let keys = history.outcomes.compactMap(\.key)
    #expect(keys.first == "m1", "\(keys)")
    #expect(keys.last == "m2", "\(keys)")
    #expect(history.missed.compactMap(\.key) == ["m1", "m2"])
    #expect(history.toReplay(last: false, limit: 1, isRunning: { _ in false }).compactMap(\.key) == ["m2"])
  }

  @Test func itemsWithoutATimeKeepTheirPlaceAfterTheOneBefore() {
    let ordered = History.inTimeOrder([("a", 5.0), ("b", nil), ("c", 1.0), ("d", 5.0)], seconds: \.1)
    #expect(ordered.map(\.0) == ["c", "a", "b", "d"])
  }
}
