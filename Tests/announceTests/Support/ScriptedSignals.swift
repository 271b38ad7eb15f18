import Synchronization

@testable import announce

/// The process's signals as a test sends them: the one ``ProcessSignals`` that a run
/// gets from ``Main``, with no kill() and no stop of the test process. SIGTSTP's stop
/// returns once the test sends SIGCONT.
final class ScriptedSignals: Sendable {
  /// What the run is given.
  let process: ProcessSignals
  private let handOvers: AsyncStream<Void>
  private let record: Record

  /// What the scripted process did.
  private final class Record: Sendable {
    let stops = Mutex(0)
    let continues: AsyncStream<Void>
    let continued: AsyncStream<Void>.Continuation
    init() { (continues, continued) = AsyncStream.makeStream(of: Void.self) }
  }

  init() {
    let record = Record()
    let (handOvers, handedOver) = AsyncStream.makeStream(of: Void.self)
    self.record = record
    self.handOvers = handOvers
    process = ProcessSignals(
      process: ProcessSignals.Process(
        stop: {
          record.stops.withLock { $0 += 1 }
          var continues = record.continues.makeAsyncIterator()
          _ = await continues.next()
        },
        continued: { record.continued.yield() },
        handedOver: { handedOver.yield() }))
  }

  /// The first ending signal a phase took, if one came.
  var received: HandledSignal? { process.received }

  /// How many times the process stopped.
  var stops: Int { record.stops.withLock { $0 } }

  /// Returns once a phase has taken the signals, for each call one more hand-over.
  func waitUntilArmed() async {
    var iterator = handOvers.makeAsyncIterator()
    _ = await iterator.next()
  }

  /// Sends `signal`, and returns once the phase it ends has stopped its channels.
  func send(_ signal: HandledSignal) async { await process.deliver(.ending(signal)) }

  /// Sends SIGTSTP or SIGCONT.
  func send(_ signal: CaughtSignal) async { await process.deliver(signal) }
}
