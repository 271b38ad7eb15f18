import AnnouncerCore
import AnnouncerTesting
import Foundation
import Synchronization
import Testing

@testable import announce

/// The braille service of a test: this display, or why there is none.
struct ScriptedBrailleService: BrailleService {
  var display: Result<ScriptedBrailleDisplay, BrailleUnavailable>

  func flasher(
    timing: BrailleTiming, environment: [String: String]
  ) async -> Result<BrailleFlasher, BrailleUnavailable> {
    display.map { BrailleFlasher(display: $0, timing: timing) }
  }
}

/// The run's braille rules with a scripted display and a scripted speech service.
@Suite(.timeLimit(.minutes(1))) struct BrailleRunTests {
  let service = ScriptedService()
  /// Short times, so that a flash shown for its whole time ends at once.
  let quick = BrailleTiming(wordsPerMinute: 1000, minimumFlash: .zero, shortestWindow: .milliseconds(1))
  static let missing = BrailleUnavailable.noDisplay(address: "BrlAPI host :test")

  func request(_ texts: [String], mode: BrailleMode, log: OutcomeLog? = nil) -> AnnounceRequest {
    AnnounceRequest(
      input: .texts(texts), outcomes: AnnounceRequest.Outcomes(quiet: true, history: log),
      plan: DeliveryPlan(braille: mode), braille: AnnounceRequest.Braille(timing: quick))
  }

  @Test func brailleOnlyAcknowledgedWithAKeyIsDeliveredRecordedAndNeverReachesSpeech() async throws {
    try await withTemporaryLog { log in
      let display = ScriptedBrailleDisplay(cells: .success(40))
      var slow = request(["Tests passed"], mode: .only, log: log)
      slow.braille.timing.minimumFlash = .seconds(60)
      let run = AnnounceRun(
        slow, service: service, braille: ScriptedBrailleService(display: .success(display)))
      async let result = run.result()
      await display.waitUntilWritten("Tests passed")
      display.press(.other(name: "route 3"))
      #expect(await result == .finished(RunSummary()))
      #expect(service.connectionCount == 0)
      // Given back in the order that redraws on brltty 6.5 and 6.7, then closed.
      #expect(display.calls.suffix(4) == ["priority 0", "write ", "leave", "close"])
      let recorded = try String(contentsOfFile: log.path, encoding: .utf8)
      // Braille's own words: shown, never spoken.
      #expect(recorded.contains("\"event\":\"shown\"") && recorded.contains("\"acknowledged\":\"route 3\""))
      #expect(!recorded.contains("\"event\":\"spoken\""))
      #expect(History(log: log).missed.isEmpty)
    }
  }

  @Test func brailleOnlyWithNoDisplayIsUnavailableAndNeverReachesSpeech() async throws {
    try await withTemporaryLog { log in
      let run = AnnounceRun(
        request(["Saved"], mode: .only, log: log), service: service,
        braille: ScriptedBrailleService(display: .failure(Self.missing)))
      let result = await run.result()
      #expect(result == .failed(.serviceUnavailable(Self.missing.printedMessage)))
      #expect(ExitStatus.of(result) == 69)
      #expect(service.connectionCount == 0)
      // Missed, with braille's own reason, for replay.
      let missed = History(log: log).missed
      #expect(missed.map(\.text) == ["Saved"])
      let record = try #require(missed.first)
      #expect(record.event == "not-shown" && record.reason == "no-display")
      #expect(HistoryWords.outcome(of: record) == "not shown (no braille display)")
    }
  }

  @Test func withSpeechANoDisplayIsNoFailureAndTheSpeechGoesAhead() async {
    let speaking = service.speakEverything()
    let run = AnnounceRun(
      request(["Saved"], mode: .on), service: service,
      braille: ScriptedBrailleService(display: .failure(Self.missing)))
    #expect(await run.result() == .finished(RunSummary()))
    await service.backend.close()
    #expect(await speaking.value == ["Saved"])
  }

  @Test func withSpeechEachAnnouncementIsShownAndTheDisplayGivenBackBeforeTheRunEnds() async {
    let speaking = service.speakEverything()
    let display = ScriptedBrailleDisplay(cells: .success(40))
    let run = AnnounceRun(
      request(["Build done", "Tests passed"], mode: .on), service: service,
      braille: ScriptedBrailleService(display: .success(display)))
    #expect(await run.result() == .finished(RunSummary()))
    await service.backend.close()
    #expect(await speaking.value == ["Build done", "Tests passed"])
    let writes = display.calls.filter { $0.hasPrefix("write ") && $0 != "write " }
    #expect(writes == ["write Build done", "write Tests passed"])
    #expect(display.calls.last == "close")
  }

  @Test func anSSMLAnnouncementIsShownAsItsWordsWithAndWithoutSpeech() async {
    for mode in [BrailleMode.on, .only] {
      let speaking = service.speakEverything()
      let display = ScriptedBrailleDisplay(cells: .success(40))
      var ssml = request(["<speak>Build <emphasis>failed</emphasis> &amp; stopped</speak>"], mode: mode)
      ssml.defaults.isSSML = true
      let run = AnnounceRun(
        ssml, service: service, braille: ScriptedBrailleService(display: .success(display)))
      #expect(await run.result() == .finished(RunSummary()))
      await service.backend.close()
      _ = await speaking.value
      let writes = display.calls.filter { $0.hasPrefix("write ") && $0 != "write " }
      #expect(writes == ["write Build failed & stopped"], "\(mode)")
    }
  }

  @Test func brailleAloneRefusesJSONInputWhoseSettingsAreForSpeech() throws {
    for arguments in [["--braille-only", "--input", "json"], ["--input", "json"]] {
      let environment = arguments.count == 2 ? ["ANNOUNCE_BRAILLE": "only"] : [:]
      #expect(throws: (any Error).self) {
        try Announce.parse(arguments).request(environment: environment)
      }
    }
    _ = try Announce.parse(["--braille", "--input", "json"]).request(environment: [:])
  }

  @Test func aFlashWithBrailleAloneIsBoundedOnlyByATimeoutTheUserChose() throws {
    func limit(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Duration? {
      try Announce.parse(["--braille-only"] + arguments + ["Saved"]).request(environment: environment)
        .flashLimit
    }
    #expect(try limit([]) == nil)
    #expect(try limit(["--timeout", "3"]) == .seconds(3))
    #expect(try limit([], ["ANNOUNCE_TIMEOUT": "4"]) == .seconds(4))
    #expect(try limit(["--timeout", "0"]) == nil)
  }

  @Test func theHooksAndReplayFollowAnnounceBraille() throws {
    let only = try AnnounceRequest.hook(
      speaking: "make finished", soundIcon: nil,
      environment: ["ANNOUNCE_BRAILLE": "only", "ANNOUNCE_TIMEOUT": "20"])
    #expect(only.plan == DeliveryPlan(braille: .only))
    #expect(only.flashLimit == .seconds(20))
    let off = try AnnounceRequest.hook(speaking: "make finished", soundIcon: nil, environment: [:])
    #expect(off.plan == .speech)
    // A hook's own timeout bounds a flash with braille alone, as it bounds speech.
    let hooksOwn = try AnnounceRequest.hook(
      speaking: "make finished", soundIcon: nil, environment: ["ANNOUNCE_BRAILLE": "only"])
    #expect(hooksOwn.flashLimit == .seconds(AnnounceRequest.hookTimeout))
  }
}
