import Foundation
import Glibc
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// The history keeps its promise: odd records are read as far as they can be, and a
/// claim belongs to the process that made it, not to its number.
@Suite struct HistoryRobustnessTests {
  static let missed =
    #"{"event":"gave-up","text":"Build failed.","reason":"stalled","key":"a","priority":"text","at":"2026-11-22T10:15:03.000Z","pid":12}"#

  /// A record with a known field of the wrong type was dropped whole, silently.
  @Test func aFieldOfTheWrongTypeIsLeftOutAndCountedAndTheRecordKept() throws {
    let forged = Self.missed.replacingOccurrences(of: #""pid":12"#, with: #""pid":"12","rate":1.5"#)
    let history = History(lines: [forged, "not json", #"{"text":"no event"}"#])
    #expect(history.records.count == 1)
    #expect(history.skippedFields == 2)
    let record = try #require(history.missed.first)
    #expect(
      record.text == "Build failed." && record.pid == nil && record.settings["rate"] == nil
        && record.key == "a")
    #expect(History(lines: [Self.missed]).skippedFields == 0)
    #expect(
      HistoryCommand.skipped(2, path: "\(testRoot)/l").hasPrefix(
        "2 values in the outcome log \(testRoot)/l had the wrong type"))
  }

  /// A killed replay's claim, its number taken by another process, hid what it claimed.
  @Test func aClaimWhoseNumberNowBelongsToAnotherProcessIsTakenOver() throws {
    let me = getpid()
    let myStart = try #require(Claimant.start(of: me))
    // The same number, started at another time: the claimer is gone.
    let stale = History.claimLine(keys: ["a"], pid: me, start: myStart - 1)
    #expect(
      History(lines: [Self.missed, stale]).toReplay(last: false, isRunning: History.isRunning).count == 1)
    let live = History.claimLine(keys: ["a"], pid: me, start: myStart)
    #expect(History(lines: [Self.missed, live]).toReplay(last: false, isRunning: History.isRunning).isEmpty)
    // A claim of a process that has ended, whatever took its number since.
    let ended = History.claimLine(keys: ["a"], pid: 4_194_304, start: 1)
    #expect(
      History(lines: [Self.missed, ended]).toReplay(last: false, isRunning: History.isRunning).count == 1)
  }
}
