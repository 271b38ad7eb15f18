import AnnouncerCore
import AnnouncerTesting
import Synchronization
import Testing

@testable import announce

/// The outcomes of the flashes a channel reported, in order.
final class FlashReports: ChannelReporting {
  private let reports = Mutex<[FlashReport]>([])
  var all: [FlashReport] { reports.withLock { $0 } }
  func report(_ report: any ChannelReport) {
    guard let report = report as? FlashReport else { return }
    reports.withLock { $0.append(report) }
  }
}

/// `--braille-only`'s flood control, with a scripted display and a manual clock that
/// never moves: each flash ends only when a key acknowledges it.
@Suite(.timeLimit(.minutes(1))) struct BrailleFloodControlTests {
  /// A flasher on `display` whose flashes end only by a key: a minute's minimum on a
  /// clock that never moves.
  static func flasher(on display: ScriptedBrailleDisplay) -> BrailleFlasher {
    BrailleFlasher(
      display: display, clock: ManualClock(),
      timing: BrailleTiming(
        wordsPerMinute: 1000, minimumFlash: .seconds(60), shortestWindow: .milliseconds(1)))
  }

  @Test func theBacklogIsBoundedByMaxQueueAndOneSummaryIsShownAheadOfTheKeptOnes() async {
    let (display, reports) = (ScriptedBrailleDisplay(cells: .success(40)), FlashReports())
    let channel = BrailleChannel(
      flasher: Self.flasher(on: display), terminal: Terminal(quiet: true), followsOthers: false,
      floodControl: (maxWaiting: 2, wording: .english))
    channel.start(reporting: reports)
    channel.show("line 1", for: AnnouncementID(1), heldFor: [])
    await display.waitUntilWritten("line 1")
    for id in 2...6 { channel.show("line \(id)", for: AnnouncementID(id), heldFor: []) }
    for text in ["line 1", "3 messages skipped", "line 5", "line 6"] {
      await display.waitUntilWritten(text)
      display.press(.other(name: "route 1"))
    }
    await channel.finish()
    let written = display.calls.filter { $0.hasPrefix("write ") && $0 != "write " }
    #expect(written == ["write line 1", "write 3 messages skipped", "write line 5", "write line 6"])
    // The three left out are braille's own `skipped`, reported at once; the summary is no
    // announcement of the user's and has no report.
    let skipped = reports.all.filter { $0.outcome == .notShown(.skipped) }.map(\.id.rawValue)
    #expect(skipped == [2, 3, 4])
    #expect(reports.all.filter(\.outcome.wasDelivered).map(\.id.rawValue) == [1, 5, 6])
  }

  /// With speech, what flood control drops is not flashed, and the summary the speech
  /// says in its place is shown ahead of the next kept announcement, held until said.
  @Test func withSpeechTheSpeechsSummaryIsShownAheadOfTheNextKeptOne() async throws {
    let (display, reports) = (ScriptedBrailleDisplay(cells: .success(40)), FlashReports())
    let channel = BrailleChannel(
      flasher: Self.flasher(on: display), terminal: Terminal(quiet: true), followsOthers: true)
    channel.start(reporting: reports)
    func event(_ id: Int, _ text: String, _ kind: AnnouncerEvent.Kind) -> PeerNews? {
      SpeechReport(
        AnnouncerEvent(
          announcement: AnnouncementID(id), text: text, attempt: 1, time: .seconds(1), kind: kind)
      ).news
    }
    func item(_ id: Int) -> DeliveryItem {
      DeliveryItem(
        id: AnnouncementID(id), announcement: Announcement("line \(id)"), channels: [.speech, .braille])
    }
    channel.deliver(item(1))
    await display.waitUntilWritten("line 1")
    for id in 2...4 { channel.deliver(item(id)) }
    channel.hear(try #require(event(1, "line 1", .spoken(duration: .seconds(1)))))
    for id in 2...3 { channel.hear(try #require(event(id, "line \(id)", .gaveUp(.dropped)))) }
    channel.hear(try #require(event(-1, "2 messages skipped", .attempt)))
    display.press(.other(name: "route 1"))
    await display.waitUntilWritten("2 messages skipped")
    channel.hear(try #require(event(-1, "2 messages skipped", .spoken(duration: .seconds(1)))))
    display.press(.other(name: "route 1"))
    await display.waitUntilWritten("line 4")
    channel.hear(try #require(event(4, "line 4", .spoken(duration: .seconds(1)))))
    display.press(.other(name: "route 1"))
    await channel.finish()
    let written = display.calls.filter { $0.hasPrefix("write ") && $0 != "write " }
    #expect(written == ["write line 1", "write 2 messages skipped", "write line 4"])
    #expect(reports.all.map(\.id.rawValue) == [2, 3, 1, 4])
  }

  /// `tail -f | announce --braille-only`: however many lines, the channel and its
  /// flasher keep about `--max-queue` flashes and a bounded number of outcomes. The
  /// channel kept every flash's id, and the flasher every outcome, to the end of the run.
  @Test func aLongFloodKeepsNoEndedFlash() async {
    let (display, reports) = (ScriptedBrailleDisplay(cells: .success(40)), FlashReports())
    let flasher = Self.flasher(on: display)
    let channel = BrailleChannel(
      flasher: flasher, terminal: Terminal(quiet: true), followsOthers: false,
      floodControl: (maxWaiting: 2, wording: .english))
    channel.start(reporting: reports)
    channel.show("line 1", for: AnnouncementID(1), heldFor: [])
    await display.waitUntilWritten("line 1")
    for id in 2...300 { channel.show("line \(id)", for: AnnouncementID(id), heldFor: []) }
    // On the display or waiting: line 1, the summary and two kept lines.
    #expect(await flasher.keptCount() <= 4 + BrailleFlasher.keptOutcomes)
    for text in ["line 1", "297 messages skipped", "line 299", "line 300"] {
      await display.waitUntilWritten(text)
      display.press(.other(name: "route 1"))
    }
    await flasher.drain()
    #expect(await flasher.keptCount() <= BrailleFlasher.keptOutcomes)
    await channel.finish()
    #expect(channel.keptCount == 0)
    #expect(reports.all.count == 300)
  }
}
