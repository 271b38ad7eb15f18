import AnnouncerCore
import AnnouncerTesting
import Foundation
import Testing

@testable import announce

/// A line equal to one still waiting is merged by the speech at once (issue 45, defect 1).
/// Its flash and its history entry must end with that outcome, whenever it comes: a flash
/// registered after its speech had ended was held on the display for ever, and the run
/// never ended (`(echo long; yes same | head -50000) | announce --braille`).
@Suite(.timeLimit(.minutes(1))) struct MergedLineTests {
  /// Gives the race its losing order for one merged announcement: the sinks are told it
  /// was queued only after its outcome went past them, if that outcome can come first.
  /// Where the sinks hear of it before the announcer takes it, the outcome cannot come
  /// while they are told, and `before` lets them be told after a second.
  final class MergeOrder: Sendable {
    let merged: AnnouncementID
    let outcomeSeen = DispatchSemaphore(value: 0)
    /// Finishes once the sinks have been told, so that the speech holds the first line
    /// until then and the line is merged however fast it would have been said.
    let (told, tellingDone) = AsyncStream.makeStream(of: Void.self)
    init(merged: AnnouncementID) { self.merged = merged }

    var before: some EventSink { Before(order: self) }
    var after: some EventSink { After(order: self) }

    struct Before: EventSink {
      let order: MergeOrder
      func queued(_ item: DeliveryItem) {
        guard item.id == order.merged else { return }
        _ = order.outcomeSeen.wait(timeout: .now() + 1)
        order.tellingDone.finish()
      }
      func reported(_ report: any ChannelReport) {}
      func rejected(line: Int, input: String, reason: String, time: Duration) {}
    }

    /// Last of the sinks: once it hears of the outcome, every other sink has.
    struct After: EventSink {
      let order: MergeOrder
      func reported(_ report: any ChannelReport) {
        guard let speech = report as? SpeechReport, speech.id == order.merged else { return }
        if case .merged = speech.event.kind { order.outcomeSeen.signal() }
      }
      func rejected(line: Int, input: String, reason: String, time: Duration) {}
    }
  }

  /// A long line held by the speech, then `count` copies of one line: all but the first
  /// copy are merged into it as soon as the announcer takes them.
  static func lines(count: Int) -> AsyncStream<InputLines.Line> {
    AsyncStream { continuation in
      continuation.yield(InputLines.Line(number: 1, text: "A long line that speech is still saying"))
      for number in 2...(count + 1) { continuation.yield(InputLines.Line(number: number, text: "same")) }
      continuation.finish()
    }
  }

  @Test func aMergedLineLeavesNoFlashHeldForItsSpeechAndNoHistoryEntryWaiting() async throws {
    try await withTemporaryLog { log in
      let service = ScriptedService()
      let announcer = Announcer(
        backend: service.backend, clock: service.clock, defaultTimeout: .seconds(60), maxWaiting: 100)
      let terminal = Terminal(quiet: true)
      let recorder = HistoryRecorder(log: log, terminal: nil)
      let display = ScriptedBrailleDisplay(cells: .success(40))
      let flasher = BrailleFlasher(
        display: display,
        timing: BrailleTiming(wordsPerMinute: 1000, minimumFlash: .zero, shortestWindow: .milliseconds(1)))
      let channel = BrailleChannel(flasher: flasher, terminal: terminal, followsOthers: true)
      let order = MergeOrder(merged: AnnouncementID(3))
      let speaking = Task {
        for await _ in order.told {}
        return await service.speakEverything().value
      }
      let speech = SpeechChannel(announcer: announcer, defaults: Announcement(""))
      let loop = DeliveryLoop(
        plan: DeliveryPlan(braille: .on), channels: [speech, channel],
        sinks: [order.before, recorder, order.after], terminal: terminal, defaults: Announcement(""))
      let summary = await loop.run(Self.lines(count: 2), format: .lines)
      #expect(summary.failures.isEmpty)
      // Every outcome has been reported: nothing may still wait for one.
      #expect(channel.flashesAwaitingSpeech == 0)
      #expect(recorder.unreportedCount == 0)
      await service.backend.close()
      _ = await speaking.value
      recorder.waitUntilWritten()
    }
  }
}
