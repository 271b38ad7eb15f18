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
    let result = await RunDriver(signals: signals.process).run(channels: channels) { expected }
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
    let result = await RunDriver(signals: signals.process).run(channels: channels) {
      for await _ in never {}
      return RunSummary()
    }
    await sender.value
    held.finish()
    #expect(result == .interrupted(signal))
    #expect(log.names.withLock { $0 } == ["speech", "braille"])
  }

  /// A wait that ends when the test says: the `--when-done` process, scripted.
  final class ScriptedWait: Sendable {
    private let ended = Mutex<(@Sendable (Duration) -> Void)?>(nil)
    /// Whether the driver started the wait.
    var started: Bool { ended.withLock { $0 != nil } }
    func start(_ ended: @escaping @Sendable (Duration) -> Void) { self.ended.withLock { $0 = ended } }
    /// Ends the wait at `time`.
    func end(at time: Duration) { ended.withLock { $0 }?(time) }
  }

  /// A `--when-done` run with scripted signals and a scripted wait, and what the driver
  /// told of signals and started after the wait.
  final class WaitedRun: Sendable {
    let signals = ScriptedSignals()
    let wait = ScriptedWait()
    let interruptions = Mutex<[(HandledSignal, afterTheWait: Bool)]>([])
    let runs = Mutex<[Duration]>([])

    /// Runs the driver, with `then` as the run after the wait.
    func run(
      then: @escaping @Sendable (ProcessSignals) async -> RunResult = { _ in .finished(RunSummary()) }
    ) async throws -> RunResult {
      let signals = self.signals.process
      return try await RunDriver(signals: signals).run(
        waitingFor: { [wait] in wait.start($0) },
        interrupted: { [self] signal, afterTheWait in
          interruptions.withLock { $0.append((signal, afterTheWait)) }
        },
        then: { [self] time in
          runs.withLock { $0.append(time) }
          return await then(signals)
        })
    }
  }

  @Test(arguments: [(HandledSignal.interrupt, Int32(130)), (.terminate, 143)])
  func aSignalDuringTheWaitEndsTheRunWithItsStatusAndNothingRuns(
    signal: HandledSignal, status: Int32
  ) async throws {
    let run = WaitedRun()
    let sender = Task {
      await run.signals.waitUntilArmed()
      #expect(run.wait.started)
      await run.signals.send(signal)
      // The process ends after the signal: too late, nothing runs.
      run.wait.end(at: .seconds(5))
    }
    let result = try await run.run()
    await sender.value
    #expect(result == .interrupted(signal))
    #expect(ExitStatus.of(result) == status)
    #expect(run.runs.withLock { $0 }.isEmpty)
    let interruptions = run.interruptions.withLock { $0 }
    #expect(
      interruptions.count == 1 && interruptions.first?.0 == signal
        && interruptions.first?.afterTheWait == false)
  }

  @Test func theProcessEndingStartsTheRunWhoseResultIsTheResult() async throws {
    let run = WaitedRun()
    var summary = RunSummary()
    summary.count(.speech(.disconnected))
    let expected = summary
    let ender = Task {
      await run.signals.waitUntilArmed()
      run.wait.end(at: .seconds(7))
    }
    let result = try await run.run { _ in .finished(expected) }
    await ender.value
    #expect(result == .finished(expected))
    #expect(run.runs.withLock { $0 } == [.seconds(7)])
    #expect(run.interruptions.withLock { $0 }.isEmpty)
  }

  @Test func aSignalAfterTheWaitEndsTheRunAndReachesTheRunWhenItArms() async throws {
    let run = WaitedRun()
    let stoppedRun = Mutex<HandledSignal?>(nil)
    let ender = Task {
      await run.signals.waitUntilArmed()
      run.wait.end(at: .seconds(1))
    }
    let result = try await run.run { runSignals in
      // The signal comes while the run connects, before its phase.
      await run.signals.send(.hangUp)
      switch await RunDriver(signals: runSignals).phase(stopping: [], { RunSummary() }) {
      case .finished(let summary): return .finished(summary)
      case .interrupted(let signal):
        stoppedRun.withLock { $0 = signal }
        return .interrupted(signal)
      }
    }
    await ender.value
    #expect(result == .interrupted(.hangUp))
    #expect(ExitStatus.of(result) == 129)
    let interruptions = run.interruptions.withLock { $0 }
    #expect(interruptions.count == 1 && interruptions.first?.afterTheWait == true)
    #expect(stoppedRun.withLock { $0 } == .hangUp)
  }

  @Test func aWaitThatCannotStartIsTheFailure() async {
    let failure = RunFailure.serviceUnavailable("Could not start a thread to wait for process 1; try again.")
    await #expect(throws: failure) {
      try await RunDriver(signals: ScriptedSignals().process).run(
        waitingFor: { _ throws(RunFailure) in throw failure },
        interrupted: { _, _ in },
        then: { _ in .finished(RunSummary()) })
    }
  }
}
