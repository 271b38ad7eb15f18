import Dispatch
import Glibc
import Synchronization

/// A signal the process catches: one that ends a run, Control-Z, or the continue after it.
enum CaughtSignal: Equatable, Sendable {
  /// SIGHUP, SIGINT, SIGQUIT or SIGTERM: the run ends with the signal's status.
  case ending(HandledSignal)
  /// SIGTSTP: Control-Z. What the run holds is given back, and the process stops.
  case stop
  /// SIGCONT: the process continues after a stop.
  case `continue`
}

/// The process's one owner of its signals, after swift-service-lifecycle's `ServiceGroup`:
/// ``Main`` arms them once, before the command runs, and hands this down to the
/// ``RunDriver`` of each phase (a run, the wait of `--when-done` and what follows it, a
/// delivery, each replayed announcement, doctor). No phase arms a trap of its own.
///
/// The first ending signal is kept for the rest of the process: it ends every phase under
/// way, the innermost first, or the next one before it starts. When each phase armed a
/// trap of its own, a signal between two phases (between two replayed announcements, or
/// between `--when-done`'s wait and the speech) was lost to libdispatch's handler, and
/// the next announcement was spoken.
final class ProcessSignals: Sendable {
  /// What the process does itself: the real one in the command, a test's script in the tests.
  struct Process: Sendable {
    /// Stops the process as SIGTSTP would, and returns once it continues.
    var stop: @Sendable () async -> Void
    /// Told of each SIGCONT. The process's own stop returns by itself when it continues.
    var continued: @Sendable () -> Void = {}
    /// Told each time a phase takes the signals.
    var handedOver: @Sendable () -> Void = {}
  }

  private struct State {
    /// The first ending signal.
    var received: HandledSignal?
    /// The phases under way, the innermost last: a run's, then its delivery's.
    var phases: [PhaseSignals] = []
  }

  /// The state, in a class of its own, which the suspension shares.
  private final class Shared: Sendable {
    let state = Mutex(State())
    var phase: PhaseSignals? { state.withLock { $0.phases.last } }
  }

  private let shared = Shared()
  private let process: Process
  /// The one suspension of the process: one at a time (see ``Suspension/received()``).
  private let suspension: Suspension
  /// The process's signal sources, kept for as long as it runs.
  private let sources: KeptSources

  /// Sources that nothing changes once made: libdispatch's objects are safe to share
  /// between threads, and these are only held.
  private final class KeptSources: @unchecked Sendable {
    let list: [any DispatchSourceSignal]
    init(_ list: [any DispatchSourceSignal]) { self.list = list }
  }

  /// Signals that `process` delivers through ``deliver(_:)``.
  convenience init(process: Process) { self.init(process: process, sources: []) }

  private init(process: Process, sources: [any DispatchSourceSignal]) {
    self.process = process
    self.sources = KeptSources(sources)
    let shared = self.shared
    // Control-Z: what the phase under way holds is given back before the process stops,
    // and taken again when it continues.
    suspension = Suspension(
      whenStopping: { await shared.phase?.suspend() },
      whenContinued: { await shared.phase?.resume() },
      stop: process.stop)
  }

  /// Signals that never come: a run that nobody signals, such as a command's run called
  /// without ``Main``, or a test's run that a test does not signal.
  static var unarmed: ProcessSignals {
    ProcessSignals(process: Process(stop: {}))
  }

  /// The process's own signals, armed once, by ``Main``; returns once a signal sent from
  /// now on is sure to be caught.
  ///
  /// libdispatch registers a signal source later, on its own thread, and the signals are
  /// ignored from the start, so a signal that came in between would be lost: 28 of 100
  /// SIGHUPs sent the moment `--when-done` said it was waiting were, when the registration
  /// was not waited for. libdispatch installs its own handler for a signal when the first
  /// source for it is registered, once per process: this is that one time.
  static func armed() async -> ProcessSignals {
    let owner = Owner()
    let registered = DispatchGroup()
    let sources = caught.map { number, signal in
      Glibc.signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      registered.enter()
      source.setRegistrationHandler { registered.leave() }
      source.setEventHandler {
        // Claimed on Dispatch's thread as it arrives: a Task may wait for one of Swift's
        // few threads, while the run goes on to its next phase.
        guard let handling = owner.signals?.receive(signal) else { return }
        Task { await handling() }
      }
      return source
    }
    let signals = ProcessSignals(
      process: Process(stop: { Suspension.stopUntilContinued() }),
      sources: sources)
    // Set before any source is resumed, so that no signal finds no owner.
    owner.signals = signals
    for source in sources { source.resume() }
    await withCheckedContinuation { continuation in
      registered.notify(queue: .global()) { continuation.resume() }
    }
    return signals
  }

  /// Who the sources deliver to, known once it is made.
  private final class Owner: Sendable {
    private let owner = Mutex<ProcessSignals?>(nil)
    var signals: ProcessSignals? {
      get { owner.withLock { $0 } }
      set { owner.withLock { $0 = newValue } }
    }
  }

  /// Every signal the process catches, with its number.
  private static let caught: [(number: Int32, signal: CaughtSignal)] =
    HandledSignal.allCases.map { ($0.number, .ending($0)) } + [(SIGTSTP, .stop), (SIGCONT, .continue)]

  /// The signals that ``armed()`` ignores until its sources take them: a program it
  /// starts would inherit them ignored, so it puts them back to their default.
  static var ignoredUntilCaught: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for (number, _) in caught { sigaddset(&set, number) }
    return set
  }

  /// Handles `signal`, and returns once the phases it ends have stopped every channel.
  func deliver(_ signal: CaughtSignal) async { await receive(signal)() }

  /// Takes `signal` as it arrives, and returns what is left to do about it.
  ///
  /// An ending signal is claimed here, before our speech is cancelled, so that the
  /// delivery, which ends because of that cancelling, sees that a signal ends it.
  func receive(_ signal: CaughtSignal) -> @Sendable () async -> Void {
    switch signal {
    case .ending(let ending):
      let phases = shared.state.withLock { state -> [PhaseSignals] in
        guard state.received == nil else { return [] }
        state.received = ending
        return state.phases
      }
      phases.last?.wasInnermost = true
      // The innermost first, each one over before the next is stopped: the delivery's
      // channels are stopped, and the wait's sentence said, before the run that holds
      // them ends and the process exits.
      return {
        for phase in phases.reversed() {
          await phase.stop(because: ending)
          await phase.over()
        }
      }
    case .stop:
      suspension.received()
      return {}
    case .continue:
      process.continued()
      return {}
    }
  }

  /// The first ending signal since a phase took the signals, if one came. A run it ends
  /// exits with the signal's status, not with the outcome of what it cancelled.
  var received: HandledSignal? { shared.state.withLock { $0.received } }

  /// Hands the signals to a phase whose work runs on `channels`, inside the phases under
  /// way, until ``PhaseSignals/end()``. `earlier` is the signal that came before, which
  /// ends the phase before it starts.
  func handOver(to channels: [any StoppableChannel]) -> (phase: PhaseSignals, earlier: HandledSignal?) {
    let phase = PhaseSignals(channels: channels, owner: self)
    let earlier = shared.state.withLock { state -> HandledSignal? in
      state.phases.append(phase)
      return state.received
    }
    process.handedOver()
    return (phase, earlier)
  }

  /// Takes the signals back from `phase`: one from now on waits for the next phase.
  fileprivate func takeBack(_ phase: PhaseSignals) {
    shared.state.withLock { state in state.phases.removeAll { $0 === phase } }
  }
}

/// The signals as one phase of a run gets them: an ending signal stops its channels, in
/// order, and then ends it; Control-Z suspends them.
final class PhaseSignals: Sendable {
  private let channels: [any StoppableChannel]
  private let endings: AsyncStream<HandledSignal>
  private let ending: AsyncStream<HandledSignal>.Continuation
  private let overs: AsyncStream<Never>
  private let overSink: AsyncStream<Never>.Continuation
  private let owner: ProcessSignals
  private let innermost = Atomic(false)

  /// Whether the signal came while this was the innermost phase: no phase inside it,
  /// such as a delivery, had started.
  fileprivate(set) var wasInnermost: Bool {
    get { innermost.load(ordering: .sequentiallyConsistent) }
    set { innermost.store(newValue, ordering: .sequentiallyConsistent) }
  }

  fileprivate init(channels: [any StoppableChannel], owner: ProcessSignals) {
    self.channels = channels
    self.owner = owner
    (endings, ending) = AsyncStream.makeStream(of: HandledSignal.self, bufferingPolicy: .bufferingOldest(1))
    (overs, overSink) = AsyncStream.makeStream(of: Never.self)
  }

  /// Returns once the phase is over: ``end()`` was called.
  func over() async {
    for await _ in overs {}
  }

  /// Stops every channel, in order, speech first: a stopped brltty must not delay the
  /// speech's cancel, and the speech's outcomes reach the display's channel before it
  /// closes. Then the phase ends.
  func stop(because signal: HandledSignal) async {
    for channel in channels { await channel.stop() }
    ending.yield(signal)
  }

  /// Returns the signal that ended the phase, once its channels are stopped; `nil` when
  /// the waiting task is cancelled. One task waits.
  func interrupted() async -> HandledSignal? {
    var iterator = endings.makeAsyncIterator()
    return await iterator.next()
  }

  func suspend() async { for channel in channels { await channel.suspend() } }
  func resume() async { for channel in channels { await channel.resume() } }

  /// The phase is over: the signals go back to the process's owner.
  func end() {
    owner.takeBack(self)
    ending.finish()
    overSink.finish()
  }
}
