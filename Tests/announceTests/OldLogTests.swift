import AnnouncerCore
import Foundation
import Testing

@testable import announce

/// Records name their channel, whether it had to deliver, and whether it did (issue 45
/// item 4); logs written before, by 0.3.0 and by the builds after it, are read as they
/// were: by `history`, `history --missed`, `replay` and the rotation's carry.
@Suite struct OldLogTests {
  /// A log as 0.3.0 wrote it (the record shape of `HistoryRecorder.line(for:…)` at the
  /// commit that made 0.3.0, 1ce4c1d): speech's outcomes, a rejected line, a replay's
  /// claim and the outcome of that replay.
  static let version030 = [
    #"{"event":"spoken","id":1,"text":"Build finished","attempt":1,"time":0.812,"duration":0.8,"key":"100-1-1","priority":"text","at":"2026-11-25T10:15:03.120Z","pid":100}"#,
    #"{"event":"gave-up","id":2,"text":"Tests failed","attempt":1,"time":1.2,"reason":"interrupted-out-of-time","key":"100-1-2","priority":"message","rate":30,"at":"2026-11-25T10:15:04.120Z","pid":100}"#,
    #"{"event":"rejected","line":3,"text":"{bad","reason":"the line is not a JSON object","time":1.3,"at":"2026-11-25T10:15:04.200Z","pid":100}"#,
    #"{"event":"gave-up","id":1,"text":"Deploy done","attempt":0,"time":0,"reason":"unreachable","key":"101-2-1","priority":"text","at":"2026-11-25T10:16:00.000Z","pid":101}"#,
    #"{"event":"replay","keys":["101-2-1"],"at":"2026-11-25T10:17:00.000Z","pid":102}"#,
    #"{"event":"spoken","id":1,"text":"Deploy done","attempt":1,"time":0.5,"duration":0.5,"key":"102-3-1","replays":"101-2-1","priority":"text","at":"2026-11-25T10:17:01.000Z","pid":102}"#,
  ]

  /// Braille's records as the builds after 0.3.0 wrote them, before records named their
  /// channel: a flash alone that was not shown (it decides), and a flash shown beside
  /// speech (`withSpeech`, extra) whose speech gave up (which decides).
  static let brailleBeforeChannels = [
    #"{"event":"not-shown","id":1,"text":"Flash alone","time":0.1,"reason":"no-display","key":"103-4-1","priority":"text","at":"2026-11-26T09:00:00.000Z","pid":103}"#,
    #"{"event":"gave-up","id":1,"text":"With speech","attempt":1,"time":2,"reason":"no-retry","key":"104-5-1","priority":"text","at":"2026-11-26T09:01:00.000Z","pid":104}"#,
    #"{"event":"shown","id":1,"text":"With speech","time":2.5,"duration":2.5,"withSpeech":true,"key":"104-5-1","priority":"text","at":"2026-11-26T09:01:01.000Z","pid":104}"#,
  ]

  @Test func historyReadsA030LogAsBefore() {
    let history = History(lines: Self.version030)
    #expect(
      history.outcomes.map { $0.text ?? "" } == [
        "Build finished", "Tests failed", "Deploy done", "Deploy done",
      ])
    #expect(
      history.outcomes.map(HistoryWords.outcome(of:)) == [
        "heard", "not heard (interrupted)", "not heard (speech-dispatcher unreachable)", "heard on replay",
      ])
    #expect(history.outcomes.map(\.channel) == [.speech, .speech, .speech, .speech])
  }

  @Test func missedAndReplayReadA030LogAsBefore() throws {
    let history = History(lines: Self.version030)
    // Deploy done was heard on replay; Tests failed is still missed.
    #expect(history.missed.map { $0.text ?? "" } == ["Tests failed"])
    let replayed = history.toReplay(last: false, isRunning: { _ in false })
    #expect(replayed.map { $0.text ?? "" } == ["Tests failed"])
    let announcement = try #require(replayed.first).announcement
    #expect(announcement.voice.rate == 30 && announcement.priority == .message)
  }

  @Test func theRotationCarriesWhatA030LogMissed() {
    let carried = OutcomeLog.carried(older: LogLines(Self.version030), current: LogLines())
    #expect(carried == [Self.version030[1]])
  }

  @Test func braillesRecordsFromBeforeTheChannelFieldReadAsBefore() {
    let history = History(lines: Self.brailleBeforeChannels)
    #expect(
      history.outcomes.map(HistoryWords.outcome(of:)) == [
        "not shown (no braille display)", "not heard (interrupted, no retry)", "shown on the braille display",
      ])
    #expect(history.outcomes.map(\.channel) == [.braille, .speech, .braille])
    // The flash beside speech is extra: the speech's outcome decides.
    #expect(history.missed.map { $0.text ?? "" } == ["Flash alone", "With speech"])
    let carried = OutcomeLog.carried(older: LogLines(Self.brailleBeforeChannels), current: LogLines())
    #expect(carried == Array(Self.brailleBeforeChannels.prefix(2)))
  }

  /// A record of a channel this version does not know is read by its fields alone: the
  /// readers know no channel's events.
  @Test func aRecordOfAnyChannelIsReadByItsFields() {
    let lines = [
      #"{"event":"notified","id":1,"text":"Saved","time":0.1,"reason":"no-bus","key":"105-6-1","channel":"pager","required":true,"delivered":false,"priority":"text","at":"2026-11-27T09:00:00.000Z","pid":105}"#,
      #"{"event":"notified","id":2,"text":"Also saved","time":0.1,"key":"105-6-2","channel":"pager","required":false,"delivered":false,"priority":"text","at":"2026-11-27T09:00:01.000Z","pid":105}"#,
    ]
    let history = History(lines: lines)
    #expect(history.outcomes.count == 2)
    #expect(history.outcomes.map(\.channel) == [nil, nil])
    // Only the one its channel had to deliver is missed, and carried.
    #expect(history.missed.map { $0.text ?? "" } == ["Saved"])
    #expect(OutcomeLog.carried(older: LogLines(lines), current: LogLines()) == [lines[0]])
  }

  /// What this version writes: each record names its channel, whether it had to
  /// deliver, and whether it did.
  @Test func aRecordNamesItsChannelWhetherItWasRequiredAndWhetherItDelivered() throws {
    try withLogInFreshDirectory { log, _ in
      let recorder = HistoryRecorder(log: log, plan: DeliveryPlan(braille: .on), terminal: nil)
      recorder.queued(Announcement("Saved"), as: AnnouncementID(1), channels: 2)
      recorder.reported(
        SpeechReport(
          AnnouncerEvent(
            announcement: AnnouncementID(1), text: "Saved", attempt: 1, time: .seconds(1),
            kind: .gaveUp(.noRetry)
          )),
        at: Date(), pid: 1)
      recorder.reported(
        FlashReport(
          id: AnnouncementID(1), text: "Saved", outcome: .shown(duration: .seconds(2)), withSpeech: true,
          time: .seconds(2)), at: Date(), pid: 1)
      recorder.waitUntilWritten()
      let records = History(log: log).outcomes
      #expect(records.map(\.channelName) == ["speech", "braille"])
      #expect(records.map(\.required) == [true, false])
      #expect(records.map(\.delivered) == [false, true])
      #expect(History(log: log).missed.map { $0.text ?? "" } == ["Saved"])
      #expect(recorder.unreportedCount == 0)
    }
  }
}
