import AnnouncerCore
import PropertyTesting
import Foundation
import Synchronization
import Testing

@testable import announce
import AnnouncerTesting

/// The history: the record format, what is missed, claims, and the words of `announce history`.
@Suite struct HistoryRecordTests {
  static let date = Date(timeIntervalSince1970: 1_800_000_000.25)

  /// The line `announcement`'s outcome `kind` gets in the log, and the record read back.
  func recorded(
    _ announcement: Announcement, _ kind: AnnouncerEvent.Kind = .gaveUp(.interruptedOutOfTime),
    replays: String? = nil
  ) throws -> (line: String, record: HistoryRecord) {
    let recorder = HistoryRecorder(
      log: OutcomeLog(path: UnusedPath.file("log.jsonl")), replays: replays, terminal: nil)
    let event = AnnouncerEvent(
      announcement: AnnouncementID(7), text: "a part", attempt: 2, time: .seconds(3), kind: kind, part: 2,
      parts: 3)
    let line = recorder.recordLine(
      for: SpeechReport(event), queued: announcement.asSpoken, at: Self.date, pid: 42)
    return (line, try #require(HistoryRecord.parse(line), "\(line)"))
  }

  @Test func anyTextVoiceAndSSMLRoundTripThroughTheLogAndReplayIdentically() {
    let name = Gen.element(of: ["en", "de-DE", "espeak-ng", "Alex", "message", "x"])
    let languages = Gen.element(of: ["en", "de-DE", "pt-BR", "fr", "en-GB-x-rp"])
    let level = Gen.int(in: -100...100).optional
    let type = Gen<VoiceOptions.VoiceType>.anyCase.optional
    let punctuation = Gen<VoiceOptions.Punctuation>.anyCase.optional
    let voices = Gen { generator in
      let (rate, pitch, volume) = (level.next(&generator), level.next(&generator), level.next(&generator))
      let word = name.optional.next(&generator)
      // A language is a language name (issue #46), as speech-dispatcher names it.
      let language = languages.optional.next(&generator)
      return VoiceOptions(
        rate: rate, pitch: pitch, pitchRange: volume.map { -$0 }, volume: volume, language: language,
        voiceName: word, voiceType: type.next(&generator), outputModule: word,
        punctuation: punctuation.next(&generator), spell: Gen.bool.next(&generator))
    }
    let texts = Gen.character(in: 0...0xD7FF).string(of: 1...40)
    let inputs = Gen { generator in
      (
        texts.next(&generator), voices.next(&generator), Gen<SpeechPriority>.anyCase.next(&generator),
        Gen.bool.next(&generator), name.optional.next(&generator)
      )
    }
    propertyCheck(count: 300, input: inputs) { text, voice, priority, ssml, icon in
      let announcement = Announcement(text, isSSML: ssml, priority: priority, voice: voice, soundIcon: icon)
      var expected = announcement
      if !ssml { expected.text = SpeakableText.cleaned(text) }
      let (line, record) = try recorded(announcement)
      #expect(!line.contains("\n"))
      #expect(record.announcement == expected, "\(line)")
      #expect(record.seconds == Self.date.timeIntervalSince1970, "\(line)")
      // The replay speaks it with the same settings, whatever the variables say today.
      let environment = ReplayCommand.replayEnvironment([
        "ANNOUNCE_RATE": "90", "ANNOUNCE_PRIORITY": "important",
      ])
      let request = try AnnounceRequest.replaying(record, environment: environment)
      var replayed = expected
      replayed.retryTimeout = .seconds(AnnounceRequest.hookTimeout)
      replayed.text = ""
      #expect(request.texts == [expected.text])
      #expect(request.defaults == replayed)
      #expect(request.outcomes.replays == record.key && !request.outcomes.unattended)
    }
  }

  /// Every value of `setting` among `values`, as changes to an announcement.
  static func changes<Value>(_ setting: Setting<Value>, _ values: [Value]) -> [AnnouncementChange] {
    values.filter(setting.rule.accepts).map { value in { setting.apply?(&$0, value) } }
  }

  /// The values a setting takes, as changes to an announcement: every level, every
  /// choice, both flags, a few names and durations; none for a setting of the whole run.
  static func changes(_ setting: any AnySetting) -> [AnnouncementChange] {
    let names = ["en", "de-DE", "espeak-ng", "Alex", "message", "x", "ünï", "a\\b", "", "two words"]
    return switch setting {
    case let setting as Setting<Int>: changes(setting, Array(-1_000...1_000))
    case let setting as Setting<Double>: changes(setting, [0, 0.25, 3, 90, 86_400, -1])
    case let setting as Setting<String>: changes(setting, names)
    case let setting as Setting<Bool>: changes(setting, [false, true])
    case let setting as Setting<SpeechPriority>: changes(setting, SpeechPriority.allCases)
    case let setting as Setting<VoiceOptions.VoiceType>: changes(setting, VoiceOptions.VoiceType.allCases)
    case let setting as Setting<VoiceOptions.Punctuation>: changes(setting, VoiceOptions.Punctuation.allCases)
    default: []
    }
  }

  /// Any value of every setting in ``Settings/all`` is kept by the history record and
  /// spoken again by the replay exactly, but for how hard and when the announcement is
  /// tried: a replay is tried as the hooks' announcements are. A setting left out of the
  /// record, or recorded wrongly, fails here.
  @Test func everySettingRoundTripsThroughARecordAndReplayExactly() throws {
    let values = Settings.all.map(Self.changes)
    let options = Settings.all.map { $0.option ?? $0.jsonKey ?? "" }
    for (option, changes) in zip(options, values) where !["max-queue", "when-done"].contains(option) {
      #expect(changes.count > 1, "no values for \(option)")
    }
    let texts = Gen.character(in: 0...0xD7FF).string(of: 1...20)
    let choices = Gen.int(in: 0...1_000_000).array(of: values.count)
    propertyCheck(count: 300, input: Gen { (texts.next(&$0), choices.next(&$0)) }) { text, choices in
      var announcement = Announcement(text)
      for (changes, choice) in zip(values, choices) where choice % (changes.count + 1) < changes.count {
        changes[choice % (changes.count + 1)](&announcement)
      }
      // What the replay speaks: the announcement as spoken, tried as a hook's is.
      var replayed = announcement.asSpoken
      replayed.retryTimeout = .seconds(AnnounceRequest.hookTimeout)
      replayed.delay = Announcement("").delay
      replayed.resume = Announcement("").resume
      let (line, record) = try recorded(announcement)
      var kept = record.announcement
      kept.retryTimeout = replayed.retryTimeout
      #expect(kept == replayed, "\(line)")
      let request = try AnnounceRequest.replaying(record, environment: [:])
      #expect(request.texts == [replayed.text])
      replayed.text = ""
      #expect(request.defaults == replayed, "\(line)")
    }
  }

  @Test func aRecordHoldsTheWholeTextTheOutcomeItsKeyAndWhatItReplays() throws {
    let (line, record) = try recorded(Announcement("Build failed. Again."), replays: "9-1-1")
    #expect(record.event == "gave-up" && record.reason == "interrupted-out-of-time")
    #expect(record.text == "Build failed. Again.", "the whole text, not the part's")
    #expect(record.replays == "9-1-1" && record.announcementKey == "9-1-1")
    #expect(record.key?.hasPrefix("\(getpid())-") == true && record.key?.hasSuffix("-7") == true)
    #expect(record.pid == 42)
    #expect(line.contains("\"priority\":\"text\"") && !line.contains("\"ssml\""), "\(line)")
  }

  @Test(arguments: [
    ("2026-11-22T10:15:03.120+01:00", 1_795_338_903.12), ("2026-11-22T09:15:03.120Z", 1_795_338_903.12),
    ("2026-11-22T04:45:03.000-04:30", 1_795_338_903.0),
  ])
  func timestampsAreReadWithTheirOffset(stamp: String, seconds: Double) {
    #expect(
      HistoryRecord.seconds(fromTimestamp: stamp).map { ($0 * 1000).rounded() } == (seconds * 1000).rounded())
  }

  @Test(arguments: ["", "yesterday", "2026-11-22T10:15:03+01:00", "2026-11-22T10:15:03.120+0100"])
  func aMalformedTimestampIsNoTime(stamp: String) {
    #expect(HistoryRecord.seconds(fromTimestamp: stamp) == nil)
  }
}

@Suite struct HistoryLogTests {
  func outcome(_ key: String, heard: Bool, replays: String? = nil, pid: Int = 1, text: String = "t") -> String
  {
    let reason = heard ? "" : ",\"reason\":\"interrupted-out-of-time\""
    let replaying = replays.map { ",\"replays\":\"\($0)\"" } ?? ""
    return
      "{\"event\":\"\(heard ? "spoken" : "gave-up")\",\"id\":1,\"text\":\"\(text)\"\(reason),\"key\":\"\(key)\"\(replaying),\"priority\":\"text\",\"at\":\"2026-11-22T10:15:03.120Z\",\"pid\":\(pid)}"
  }

  @Test func missedIsNotHeardAndNotHeardSinceOnAReplayOldestFirst() {
    let history = History(lines: [
      outcome("a", heard: false, text: "A"), outcome("b", heard: true), outcome("c", heard: false, text: "C"),
      outcome("d", heard: false, text: "D"),
      outcome("r1", heard: false, replays: "a"), outcome("r2", heard: true, replays: "c"),
    ])
    #expect(history.missed.map(\.key) == ["a", "d"])
    #expect(history.toReplay(last: false, isRunning: { _ in false }).map(\.text) == ["A", "D"])
  }

  @Test func aRejectedDocumentIsListedButNeverMissed() throws {
    let rejected =
      #"{"event":"rejected","text":"{\"session_id\":\"7\"}","reason":"the field \"text\" is missing","at":"2026-11-22T10:16:03.120Z","pid":1}"#
    let lines = [outcome("a", heard: false, text: "A"), rejected]
    let listed = HistoryCommand.listed(lines, count: 10)
    #expect(listed.map(\.record.event) == ["rejected", "gave-up"])
    let now = try #require(listed.first?.record.seconds) + 60
    #expect(
      listed.first.map { HistoryWords.line(for: $0.record, now: now) }
        == "1 minute ago, rejected (invalid input): {\"session_id\":\"7\"}")
    let missed = Set(History(lines: lines).missed.compactMap(\.key))
    #expect(HistoryCommand.listed(lines, count: 10, missed: missed).map(\.record.event) == ["gave-up"])
    #expect(History(lines: lines).missed.count == 1)
    // A log of rejected documents alone is not one where nothing is recorded yet.
    #expect(HistoryCommand.listable([rejected]).count == 1)
    #expect(HistoryCommand.listable([]).isEmpty)
  }

  @Test func aReplaySpeaksTheNewestOfManyMissedOldestFirst() {
    let history = History(lines: (1...30).map { outcome("k\($0)", heard: false) })
    #expect(
      history.toReplay(last: false, limit: 3, isRunning: { _ in false }).map(\.key) == ["k28", "k29", "k30"])
  }

  @Test func aReplayIsNeverItselfReplayedAndLastReplaysTheOriginal() {
    let history = History(lines: [
      outcome("a", heard: false, text: "A"), outcome("r", heard: false, replays: "a"),
    ])
    #expect(history.missed.map(\.key) == ["a"])
    let last = history.toReplay(last: true, isRunning: { _ in false })
    #expect(last.map(\.key) == ["a"] && last.first?.replays == nil)
  }

  @Test func aClaimOfARunningReplayHoldsUntilItsOutcomeAndADeadOnesIsIgnored() {
    let claim = History.claimLine(keys: ["a", "b"], pid: 77)
    var lines = [outcome("a", heard: false), outcome("b", heard: false), claim]
    #expect(History(lines: lines).toReplay(last: false, isRunning: { $0.pid == 77 }).isEmpty)
    #expect(History(lines: lines).toReplay(last: false, isRunning: { _ in false }).count == 2)
    lines.append(outcome("r", heard: false, replays: "a", pid: 77))
    #expect(History(lines: lines).toReplay(last: false, isRunning: { $0.pid == 77 }).map(\.key) == ["a"])
  }

  @Test func aDamagedLogIsReadAroundItsBadLines() throws {
    try withLogInFreshDirectory { log, _ in
      let good = outcome("a", heard: false)
      try (good + "\n{\"event\":\"gave-up\",\"te\n" + outcome("b", heard: false) + "\n{\"event\":\"sp")
        .write(toFile: log.path, atomically: false, encoding: .utf8)
      #expect(History(log: log).missed.map(\.key) == ["a", "b"])
    }
  }

  @Test func twoReplaysAtOnceNeverClaimTheSameAnnouncement() async throws {
    try withLogInFreshDirectory { log, _ in
      for key in 1...20 { log.append(outcome("k\(key)", heard: false)) }
      let claims = Mutex<[[String]]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        let keys = (try? History.claim(in: log, last: false).get())?.1.compactMap(\.key) ?? []
        claims.withLock { $0.append(keys) }
      }
      let all = claims.withLock { $0 }.flatMap { $0 }
      #expect(all.count == 20 && Set(all).count == 20, "\(claims.withLock { $0 })")
    }
  }

  @Test func manyWritersAtOnceLoseNoRecord() throws {
    try withLogInFreshDirectory { log, _ in
      DispatchQueue.concurrentPerform(iterations: 8) { writer in
        let recorder = HistoryRecorder(log: log, terminal: nil)
        for index in 1...40 {
          let id = AnnouncementID(writer * 100 + index)
          recorder.queued(Announcement("writer \(writer) line \(index)"), as: id)
          recorder.record(
            AnnouncerEvent(
              announcement: id, text: "", attempt: 1, time: .seconds(1), kind: .gaveUp(.noRetry)))
        }
        recorder.waitUntilWritten()
      }
      let history = History(log: log)
      #expect(history.missed.count == 320)
      #expect(Set(history.missed.compactMap(\.text)).count == 320)
      var status = stat()
      #expect(stat(log.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }
  }

  @Test func aRecordersLogIsPrivateInAPrivateDirectory() throws {
    try withLogInFreshDirectory { _, base in
      let log = OutcomeLog(path: base + "/fresh/announce/log.jsonl")
      let recorder = HistoryRecorder(log: log, terminal: nil)
      recorder.queued(Announcement("Saved"), as: AnnouncementID(1))
      recorder.record(
        AnnouncerEvent(
          announcement: AnnouncementID(1), text: "Saved", attempt: 1, time: .seconds(1),
          kind: .spoken(duration: .seconds(1))))
      recorder.waitUntilWritten()
      var status = stat()
      #expect(stat(log.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
      #expect(stat(log.directory, &status) == 0 && status.st_mode & 0o777 == 0o700)
      #expect(History(log: log).outcomes.map(\.text) == ["Saved"])
    }
  }

  @Test func aReplayHeardAfterTheLogRotatedStillCountsAndNothingIsSpokenTwice() throws {
    try withLogInFreshDirectory { base, _ in
      let log = OutcomeLog(path: base.path, bound: 1_000)
      log.append(outcome("a", heard: false))
      log.append(outcome("b", heard: false))
      let claimed = try History.claim(in: log, last: false).get().1
      #expect(claimed.count == 2)
      // Other writers fill the log while the replay speaks: it rotates under it.
      for index in 1...8 { log.append(outcome("other\(index)", heard: true)) }
      #expect(FileManager.default.fileExists(atPath: log.olderPath))
      log.append(outcome("r1", heard: true, replays: "a", pid: Int(getpid())))
      log.append(outcome("r2", heard: false, replays: "b", pid: Int(getpid())))
      let history = History(log: log)
      #expect(!history.missed.contains { $0.key == "a" })
      // "b", not heard on its replay either, is offered again; "a" never.
      #expect(history.toReplay(last: false, isRunning: { _ in true }).map(\.key) == ["b"])
    }
  }
}

@Suite struct HistoryWordsTests {
  func record(_ line: String) throws -> HistoryRecord { try #require(HistoryRecord.parse(line)) }

  @Test func aLineSaysWhenWhatHappenedAndTheTextOnOneLine() throws {
    let missed = try record(
      "{\"event\":\"gave-up\",\"text\":\"Build\\nfailed.\\u001b[31m\",\"reason\":\"interrupted-out-of-time\",\"at\":\"2026-11-22T10:15:03.000Z\"}"
    )
    let now = try #require(missed.seconds) + 120
    #expect(
      HistoryWords.line(for: missed, now: now) == "2 minutes ago, not heard (interrupted): Build failed. [31m"
    )
    let heard = try record(
      "{\"event\":\"spoken\",\"text\":\"<speak>Tom &amp; Jerry</speak>\",\"ssml\":true,\"replays\":\"x\",\"at\":\"2026-11-22T10:15:03.000Z\"}"
    )
    #expect(
      HistoryWords.line(for: heard, now: now + 3600) == "1 hour 2 minutes ago, heard on replay: Tom & Jerry")
  }

  @Test(arguments: [("90s", 90.0), ("30m", 1800), ("1h", 3600), ("2d", 172_800), ("1.5h", 5400), ("45", 45)])
  func sinceTakesADuration(text: String, seconds: Double) {
    #expect(HistoryCommand.seconds(in: text) == seconds)
  }

  @Test(arguments: ["", "h", "1x", "-1h", "soon"])
  func sinceRefusesWhatIsNoDuration(text: String) {
    #expect(HistoryCommand.seconds(in: text) == nil)
  }

  @Test func nothingToReplayIsOneSentenceNamingTheLastReplay() {
    let start = "{\"event\":\"spoken\",\"text\":\"a\",\"key\":\"a\",\"at\":\"2026-11-22T10:15:03.000Z\"}"
    let replay = "{\"event\":\"replay\",\"keys\":[\"a\"],\"at\":\"2026-11-22T10:20:03.000Z\",\"pid\":1}"
    let now = HistoryRecord.seconds(fromTimestamp: "2026-11-22T10:25:03.000Z") ?? 0
    #expect(
      ReplayCommand.nothing(in: History(lines: [start, replay]), last: false, now: now)
        == "Nothing was missed since the last replay, 5 minutes ago.")
    #expect(
      ReplayCommand.nothing(in: History(lines: [start]), last: false, now: now)
        == "Nothing was missed since the history began, 10 minutes ago.")
    #expect(
      ReplayCommand.nothing(in: History(lines: []), last: false, now: now)
        == "Nothing was announced since the history began, so there is nothing to replay.")
  }
}

@Suite struct HistoryFloodTests {
  @Test func floodControlsDroppedAreRecordedAsMissedButNeitherTheMergedNorItsSummary() throws {
    try withLogInFreshDirectory { log, _ in
      let recorder = HistoryRecorder(log: log, terminal: nil)
      for id in 1...3 { recorder.queued(Announcement("line \(id)"), as: AnnouncementID(id)) }
      func event(_ id: Int, _ text: String, _ kind: AnnouncerEvent.Kind) -> AnnouncerEvent {
        AnnouncerEvent(
          announcement: AnnouncementID(id), text: text, attempt: 1, time: .seconds(1), kind: kind)
      }
      recorder.record(event(1, "line 1", .gaveUp(.dropped)))
      recorder.record(event(2, "line 2", .merged(into: AnnouncementID(3))))
      recorder.record(event(-1, "1 message skipped", .spoken(duration: .seconds(1))))
      recorder.record(event(3, "line 3", .spoken(duration: .seconds(1))))
      recorder.waitUntilWritten()
      let history = History(log: log)
      #expect(history.outcomes.map(\.text) == ["line 1", "line 3"])
      #expect(history.missed.map(\.text) == ["line 1"])
      #expect(history.missed.first?.reason == "dropped")
    }
  }
}

/// With `--braille`, each channel's outcome is recorded the moment it is known: the
/// speech's when it ends, the flash's (with the key that said it was read) when it ends.
@Suite struct HistoryBrailleTests {
  func event(_ id: Int, _ text: String) -> AnnouncerEvent {
    AnnouncerEvent(
      announcement: AnnouncementID(id), text: text, attempt: 1, time: .seconds(1),
      kind: .spoken(duration: .seconds(1)))
  }

  func flash(_ id: Int, _ outcome: BrailleOutcome, key: String? = nil, withSpeech: Bool = true) -> FlashReport
  {
    FlashReport(
      id: AnnouncementID(id), text: "line \(id)", outcome: outcome, key: key, withSpeech: withSpeech,
      time: .seconds(2))
  }

  @Test func noRecordWaitsForItsFlashAndTheKeyIsInTheFlashsRecord() throws {
    try withLogInFreshDirectory { log, _ in
      let recorder = HistoryRecorder(log: log, terminal: nil)
      for id in 1...3 { recorder.queued(Announcement("line \(id)"), as: AnnouncementID(id)) }
      for id in 1...3 { recorder.record(event(id, "line \(id)")) }
      recorder.waitUntilWritten()
      // Written at once, while every flash is still on the display.
      #expect(History(log: log).outcomes.map(\.text) == ["line 1", "line 2", "line 3"])
      recorder.reported(flash(1, .acknowledged(after: .seconds(1)), key: "route 3"))
      recorder.reported(flash(2, .notShown(.displayLost)))
      recorder.waitUntilWritten()
      let lines = log.lines()
      #expect(lines.count == 5)
      #expect(lines[3].contains("\"event\":\"shown\"") && lines[3].contains("\"acknowledged\":\"route 3\""))
      #expect(
        lines[4].contains("\"event\":\"not-shown\"") && lines[4].contains("\"reason\":\"display-lost\""))
      // The speech was heard: a flash that went with it never makes it missed.
      let history = History(log: log)
      #expect(history.missed.isEmpty)
      #expect(history.outcomes.last.map(HistoryWords.outcome(of:)) == "not shown (braille display went away)")
    }
  }

  @Test func aBrailleOnlyFlashIsShownNotHeardAndOneNotShownIsMissedUntilReplayed() throws {
    try withLogInFreshDirectory { log, _ in
      let recorder = HistoryRecorder(log: log, plan: DeliveryPlan(braille: .only), terminal: nil)
      for id in 1...2 { recorder.queued(Announcement("line \(id)"), as: AnnouncementID(id)) }
      recorder.reported(flash(1, .shown(duration: .seconds(5)), withSpeech: false))
      recorder.reported(flash(2, .notShown(.displayLost), withSpeech: false))
      recorder.waitUntilWritten()
      let history = History(log: log)
      #expect(
        history.outcomes.map(HistoryWords.outcome(of:)) == [
          "shown on the braille display", "not shown (braille display went away)",
        ])
      #expect(history.missed.map(\.text) == ["line 2"])
      #expect(history.missed.first?.reason == "display-lost")
    }
  }
}
