import AnnouncerCore
import Synchronization
import Testing

@testable import announce

/// The one delivery loop, with channels that record what they are handed: each line
/// becomes one item, handed to every channel, and each channel's outcome reaches the
/// sinks, the plan and the other channels, in the loop's own words.
@Suite(.timeLimit(.minutes(1))) struct DeliveryLoopTests {
  /// A channel that records the items and news it gets, and reports each item's
  /// outcome as `outcome` says, at once.
  final class RecordingChannel: DeliveryChannel {
    let channel: Channel
    var showsText: Bool { channel == .braille }
    let outcome: @Sendable (AnnouncementID) -> ChannelOutcome
    let items = Mutex<[DeliveryItem]>([])
    let news = Mutex<[PeerNews]>([])
    let reports = Mutex<(any ChannelReporting)?>(nil)

    init(_ channel: Channel, outcome: @escaping @Sendable (AnnouncementID) -> ChannelOutcome) {
      self.channel = channel
      self.outcome = outcome
    }

    func start(reporting reports: any ChannelReporting) { self.reports.withLock { $0 = reports } }

    func deliver(_ item: DeliveryItem) {
      items.withLock { $0.append(item) }
      let reports = self.reports.withLock { $0 }
      reports?.report(Ended(channel: channel, id: item.id, text: item.shown, outcome: outcome(item.id)))
    }

    func hear(_ news: PeerNews) { self.news.withLock { $0.append(news) } }
    func finish() async {}
    func stop() async {}
  }

  /// A report that ends an item with `outcome`.
  struct Ended: ChannelReport {
    let channel: Channel
    let id: AnnouncementID
    let text: String
    let outcome: ChannelOutcome
    var jsonLine: String { "{}" }
    var verboseLine: String { text }
    var ending: ChannelEnding? { ChannelEnding(outcome: outcome, recorded: true) }
  }

  /// A sink that keeps the items queued and the reports.
  final class Kept: EventSink {
    let queuedItems = Mutex<[AnnouncementID]>([])
    let reports = Mutex<[String]>([])
    func queued(_ item: DeliveryItem) { queuedItems.withLock { $0.append(item.id) } }
    func reported(_ report: any ChannelReport) {
      reports.withLock { $0.append("\(report.channel.rawValue) \(report.id.rawValue)") }
    }
    func rejected(line: Int, input: String, reason: String, time: Duration) {}
  }

  static func lines(_ texts: [String]) -> AsyncStream<InputLines.Line> {
    AsyncStream { continuation in
      for (index, text) in texts.enumerated() {
        continuation.yield(InputLines.Line(number: index + 1, text: text))
      }
      continuation.finish()
    }
  }

  @Test func everyChannelGetsEachLineOnceAsTheSameItemAndHearsTheOthersOutcomes() async {
    let speech = RecordingChannel(.speech) { _ in .speech(.spoken(attempts: 1, duration: .seconds(1))) }
    let braille = RecordingChannel(.braille) { _ in .braille(.notShown(.skipped)) }
    let sink = Kept()
    let loop = DeliveryLoop(
      plan: DeliveryPlan(braille: .on), channels: [speech, braille], sinks: [sink],
      terminal: Terminal(quiet: true), defaults: Announcement(""))
    let summary = await loop.run(Self.lines(["Build\u{1B}[31m failed", "", "Tests  passed"]), format: .lines)
    // The blank line is no item; the others are numbered alike on both channels.
    let spoken = speech.items.withLock { $0 }
    let shown = braille.items.withLock { $0 }
    #expect(spoken.map(\.id.rawValue) == [1, 2])
    #expect(shown.map(\.id.rawValue) == [1, 2])
    // Built once: the same speakable text and shown text for both.
    #expect(spoken.map(\.spoken.text) == ["Build failed", "Tests  passed"])
    #expect(spoken.map(\.shown) == shown.map(\.shown))
    #expect(shown.map(\.shown) == ["Build failed", "Tests passed"])
    #expect(spoken.map(\.channels) == [[.speech, .braille], [.speech, .braille]])
    #expect(sink.queuedItems.withLock { $0 }.map(\.rawValue) == [1, 2])
    #expect(sink.reports.withLock { $0 } == ["speech 1", "braille 1", "speech 2", "braille 2"])
    // Each hears the other's outcome, in the loop's words, never its own.
    #expect(
      braille.news.withLock { $0 } == [
        .finished(.speech, AnnouncementID(1), .delivered), .finished(.speech, AnnouncementID(2), .delivered),
      ])
    #expect(
      speech.news.withLock { $0 } == [
        .finished(.braille, AnnouncementID(1), .skipped), .finished(.braille, AnnouncementID(2), .skipped),
      ])
    // Braille is not required beside speech: its skipped flashes are no failure.
    #expect(summary == RunSummary())
  }

  @Test func onlyARequiredChannelsFailuresCount() async {
    let braille = RecordingChannel(.braille) { id in
      id.rawValue == 2 ? .braille(.notShown(.outOfTime)) : .braille(.shown(duration: .seconds(1)))
    }
    let loop = DeliveryLoop(
      plan: DeliveryPlan(braille: .only), channels: [braille], sinks: [], terminal: Terminal(quiet: true),
      defaults: Announcement(""))
    let summary = await loop.run(Self.lines(["one", "two", "three"]), format: .lines)
    #expect(summary.failureCounts == [.braille(.outOfTime): 1])
    // Alone, a channel hears no news.
    #expect(braille.news.withLock { $0 }.isEmpty)
  }

  @Test func aJSONLineIsReadOnceForEveryChannelAlikeAndABadOneIsRejected() async {
    let braille = RecordingChannel(.braille) { _ in .braille(.shown(duration: .seconds(1))) }
    let loop = DeliveryLoop(
      plan: DeliveryPlan(braille: .only), channels: [braille], sinks: [], terminal: Terminal(quiet: true),
      defaults: Announcement(""))
    let summary = await loop.run(Self.lines([#"{"text":"Saved"}"#, #"{"txt":"x"}"#]), format: .json)
    #expect(braille.items.withLock { $0 }.map(\.shown) == ["Saved"])
    #expect(summary.rejectedLines == 1)
  }

  static let failingSpeech: [GiveUpReason] = [.stalled, .notAnswering, .disconnected, .cancelled]

  /// Speech that failed, or that the run cancelled, is told to the other channels as
  /// failed: a flash held for it gives the display back at once.
  @Test(arguments: failingSpeech)
  func speechThatFailedIsToldAsFailed(reason: GiveUpReason) {
    #expect(PeerEnding(outcome: .speech(.gaveUp(reason))) == .failed)
  }

  /// Speech that flood control left out is told as skipped, speech cut off for a reason of
  /// the announcement's own as not delivered, and speech heard as delivered.
  @Test func theOtherSpeechEndingsAreToldInTheLoopsWords() {
    #expect(PeerEnding(outcome: .speech(.gaveUp(.dropped))) == .skipped)
    #expect(PeerEnding(outcome: .speech(.gaveUp(.interruptedOutOfTime))) == .notDelivered)
    #expect(PeerEnding(outcome: .speech(.spoken(attempts: 1, duration: .seconds(1)))) == .delivered)
    #expect(PeerEnding(outcome: nil) == .skipped)
  }
}
