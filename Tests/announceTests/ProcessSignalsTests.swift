import Synchronization
import Testing

@testable import announce

/// The process's one owner of its signals, with every signal injected: no kill(), and
/// no stop of the test process.
@Suite(.timeLimit(.minutes(1))) struct ProcessSignalsTests {
  /// A channel that tells the test what a signal did to it.
  final class WatchedChannel: StoppableChannel {
    let events: AsyncStream<String>
    private let event: AsyncStream<String>.Continuation
    init() { (events, event) = AsyncStream.makeStream(of: String.self) }
    func stop() async { event.yield("stopped") }
    func suspend() async { event.yield("suspended") }
    func resume() async { event.yield("resumed") }
  }

  /// A delivery that ends when the test says.
  final class Gate: Sendable {
    let opened: AsyncStream<Void>
    let opener: AsyncStream<Void>.Continuation
    init() { (opened, opener) = AsyncStream.makeStream(of: Void.self) }
    func wait() async {
      for await _ in opened { return }
    }
  }

  @Test func controlZGivesBackWhatThePhaseHoldsStopsAndTakesItAgainOnContinue() async {
    let signals = ScriptedSignals()
    let channel = WatchedChannel()
    let gate = Gate()
    async let ended = RunDriver(signals: signals.process).run(channels: [channel]) {
      await gate.wait()
      return RunSummary()
    }
    await signals.waitUntilArmed()
    var events = channel.events.makeAsyncIterator()
    await signals.send(.stop)
    #expect(await events.next() == "suspended")
    await signals.send(.continue)
    #expect(await events.next() == "resumed")
    #expect(signals.stops == 1)
    gate.opener.finish()
    #expect(await ended == .finished(RunSummary()))
  }

  @Test func twoControlZsCloseTogetherStopOnce() async {
    let signals = ScriptedSignals()
    let channel = WatchedChannel()
    let gate = Gate()
    async let ended = RunDriver(signals: signals.process).run(channels: [channel]) {
      await gate.wait()
      return RunSummary()
    }
    await signals.waitUntilArmed()
    var events = channel.events.makeAsyncIterator()
    await signals.send(.stop)
    await signals.send(.stop)
    #expect(await events.next() == "suspended")
    await signals.send(.continue)
    #expect(await events.next() == "resumed")
    gate.opener.finish()
    #expect(await ended == .finished(RunSummary()))
    #expect(signals.stops == 1)
  }

  /// A signal that comes before any phase, such as while a command parses its
  /// arguments, is kept, and ends the first phase before its work starts.
  @Test func anEndingSignalBeforeAnyPhaseEndsTheFirstBeforeItsWorkStarts() async {
    let signals = ScriptedSignals()
    await signals.send(.interrupt)
    #expect(signals.received == .interrupt)
    let started = Mutex(false)
    let ended = await RunDriver(signals: signals.process).run(channels: []) {
      started.withLock { $0 = true }
      return RunSummary()
    }
    #expect(ended == .interrupted(.interrupt))
    #expect(!started.withLock { $0 })
  }

  /// Phases inside each other (a run, and its delivery): a signal stops the delivery's
  /// channels before the run ends, and only the innermost is told it was.
  @Test func aSignalEndsTheInnermostPhaseFirstAndThenTheOnesAroundIt() async {
    let signals = ScriptedSignals()
    let channel = WatchedChannel()
    let gate = Gate()
    let driver = RunDriver(signals: signals.process)
    async let ended = driver.phase(stopping: []) {
      await driver.run(channels: [channel]) {
        await gate.wait()
        return RunSummary()
      }
    }
    await signals.waitUntilArmed()
    await signals.waitUntilArmed()
    await signals.send(.terminate)
    var events = channel.events.makeAsyncIterator()
    #expect(await events.next() == "stopped")
    let outer = await ended
    if case .interrupted(let signal) = outer {
      #expect(signal == .terminate)
    } else {
      Issue.record("the outer phase ended with \(outer), not the signal")
    }
    gate.opener.finish()
  }

  /// A signal between two phases (two replayed announcements) is kept, and ends the next
  /// before its work starts; the channels are stopped all the same.
  @Test func aSignalBetweenTwoPhasesEndsTheNextBeforeItsWorkStarts() async {
    let signals = ScriptedSignals()
    let first = await RunDriver(signals: signals.process).run(channels: []) { RunSummary() }
    #expect(first == .finished(RunSummary()))
    await signals.send(.terminate)
    let channel = WatchedChannel()
    let started = Mutex(false)
    let second = await RunDriver(signals: signals.process).run(channels: [channel]) {
      started.withLock { $0 = true }
      return RunSummary()
    }
    var events = channel.events.makeAsyncIterator()
    #expect(second == .interrupted(.terminate))
    #expect(await events.next() == "stopped")
    #expect(!started.withLock { $0 })
  }

  /// Only the first ending signal counts: a second one changes nothing.
  @Test func aSecondSignalDoesNotChangeTheEnding() async {
    let signals = ScriptedSignals()
    let gate = Gate()
    async let ended = RunDriver(signals: signals.process).run(channels: []) {
      await gate.wait()
      return RunSummary()
    }
    await signals.waitUntilArmed()
    await signals.send(.hangUp)
    await signals.send(.quit)
    #expect(await ended == .interrupted(.hangUp))
    #expect(signals.received == .hangUp)
    gate.opener.finish()
  }
}
