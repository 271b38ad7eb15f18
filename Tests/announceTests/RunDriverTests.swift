import Synchronization
import Testing

@testable import announce

/// ``RunDriver``, the one race of a run's endings, with scripted signals and channels:
/// no daemon, no display.
@Suite struct RunDriverTests {
  /// The names of the channels in the order they were stopped.
  final class StopLog: Sendable {
    let names = Mutex<[String]>([])
  }

  /// A channel that records when it was stopped, and in which order among others.
  final class RecordingChannel: StoppableChannel {
    let name: String
    let log: StopLog
    init(_ name: String, log: StopLog) {
      self.name = name
      self.log = log
    }
    func stop() async { log.names.withLock { $0.append(name) } }
  }

  @Test func theDeliveryFinishingIsTheResultAndNoChannelIsStopped() async {
    let log = StopLog()
    let signals = ScriptedSignals()
    let channels = [RecordingChannel("speech", log: log), RecordingChannel("braille", log: log)]
    var summary = RunSummary()
    summary.count(.braille(.displayLost))
    let expected = summary
    let result = await RunDriver(signals: signals).run(channels: channels) { expected }
    #expect(result == .finished(expected))
    #expect(log.names.withLock { $0 }.isEmpty)
    #expect(signals.received == nil)
  }

  @Test(arguments: HandledSignal.allCases)
  func aSignalStopsEveryChannelInOrderAndIsTheResult(signal: HandledSignal) async {
    let log = StopLog()
    let signals = ScriptedSignals()
    let channels = [RecordingChannel("speech", log: log), RecordingChannel("braille", log: log)]
    let (never, held) = AsyncStream.makeStream(of: Void.self)
    let sender = Task {
      await signals.waitUntilArmed()
      await signals.send(signal)
    }
    // The delivery never ends by itself: only the signal can end the run.
    let result = await RunDriver(signals: signals).run(channels: channels) {
      for await _ in never {}
      return RunSummary()
    }
    await sender.value
    held.finish()
    #expect(result == .interrupted(signal))
    #expect(log.names.withLock { $0 } == ["speech", "braille"])
  }
}
