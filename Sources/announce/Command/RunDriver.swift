import AnnouncerCore

/// The one owner of a run's ending, after swift-service-lifecycle's `ServiceGroup`: it
/// runs each phase (the wait of `--when-done`, then the delivery; each replayed
/// announcement; doctor's test sentence) and decides its one ending, the first of the
/// work finishing or a signal, through ``Race``. On a signal, every channel is stopped
/// before the result is returned, so our speech is cancelled and the braille display
/// given back before the process exits.
///
/// No channel races the others on its own: a new channel is one more entry in
/// `channels`. The signals come from the process's one ``ProcessSignals``, which ``Main``
/// armed: no phase arms a trap of its own.
struct RunDriver {
  /// The process's signals.
  let signals: ProcessSignals

  /// How a phase ended.
  enum PhaseEnd<Value: Sendable>: Sendable {
    /// Its work returned `Value`.
    case finished(Value)
    /// A signal stopped it, and every channel with it.
    case interrupted(HandledSignal)
  }

  /// Runs `work` until it returns, or until a signal stops every one of `channels`;
  /// whichever comes first is the end. Control-Z suspends the channels meanwhile.
  ///
  /// A signal claims the ending as it arrives, so the work, which then ends because its
  /// channels were stopped, leaves the end to the signal; a signal that arrives after the
  /// work returned changes nothing. The work is not waited for after a signal: it may be
  /// blocked reading standard input, and the process exits with the result.
  ///
  /// A signal that came before the phase (between two replayed announcements, or while
  /// `--when-done`'s run connected) ends it at once, and nothing is started: started
  /// anyway, the delivery said its text after the signal had stopped the speech with
  /// nothing under way, and the daemon went on speaking it after the process had exited 130.
  func phase<Value: Sendable>(
    stopping channels: [any StoppableChannel], _ work: @escaping @Sendable () async -> Value
  ) async -> PhaseEnd<Value> {
    let (phase, earlier) = signals.handOver(to: channels)
    defer { phase.end() }
    return await race(phase, earlier: earlier, work)
  }

  /// The race of `phase`'s `work` against the signals, which ``phase(stopping:_:)`` runs.
  private func race<Value: Sendable>(
    _ phase: PhaseSignals, earlier: HandledSignal?, _ work: @escaping @Sendable () async -> Value
  ) async -> PhaseEnd<Value> {
    if let earlier {
      await phase.stop(because: earlier)
      return .interrupted(earlier)
    }
    let signals = self.signals
    let ended = await Race.first(
      { () async -> PhaseEnd<Value>? in
        let value = await work()
        // Stopped by a signal: the signal's end comes once every channel is stopped.
        return signals.received == nil ? .finished(value) : nil
      },
      { await phase.interrupted().map { .interrupted($0) } })
    guard let ended else { preconditionFailure("a phase never ends without its work or a signal") }
    return ended
  }

  /// Runs `delivery` until it sums up, or until a signal stops every one of `channels`:
  /// whichever comes first is the result.
  func run(
    channels: [any StoppableChannel], delivery: @escaping @Sendable () async -> RunSummary
  ) async -> RunResult {
    switch await phase(stopping: channels, delivery) {
    case .finished(let summary): .finished(summary)
    case .interrupted(let signal): .interrupted(signal)
    }
  }
}

extension RunDriver {
  /// A run with a wait before it, as `--when-done`'s: the first of the wait's end and a
  /// signal; after the end, the first of the run `then` and a signal. A signal that comes
  /// before `then` delivers (while it connects) ends the run at once, with nothing said.
  ///
  /// - Parameters:
  ///   - waited: starts the wait, and calls its argument with the time once the wait is
  ///     over. It is called once the signals are handed to the wait, so a signal sent
  ///     from the moment it says that it waits is never lost.
  ///   - interrupted: told of a signal that ends the run before `then` delivers;
  ///     `afterTheWait` says whether the wait was over.
  ///   - then: the run after the wait, given the time the wait ended.
  func run(
    waitingFor waited: (@escaping @Sendable (Duration) -> Void) throws(RunFailure) -> Void,
    interrupted: @escaping @Sendable (HandledSignal, _ afterTheWait: Bool) -> Void,
    then: @escaping @Sendable (Duration) async throws(RunFailure) -> RunResult
  ) async throws(RunFailure) -> RunResult {
    let (ends, end) = AsyncStream.makeStream(of: Duration.self, bufferingPolicy: .bufferingOldest(1))
    // The wait's phase starts before the wait says it has begun: a signal sent from then
    // on ends the wait, which says so before its phase is over and the process exits.
    let (waiting, before) = signals.handOver(to: [])
    let time: Duration
    do {
      defer { waiting.end() }
      if before == nil { try waited { end.yield($0) } }
      let waitedFor = await race(waiting, earlier: before) {
        var iterator = ends.makeAsyncIterator()
        return await iterator.next()
      }
      switch waitedFor {
      case .interrupted(let signal):
        interrupted(signal, false)
        return .interrupted(signal)
      case .finished(let ended):
        guard let ended else { preconditionFailure("the wait never ends without a time") }
        time = ended
      }
    }
    let (phase, earlier) = signals.handOver(to: [])
    defer { phase.end() }
    let ran = await race(phase, earlier: earlier) { () async -> Result<RunResult, RunFailure> in
      do throws(RunFailure) { return .success(try await then(time)) } catch { return .failure(error) }
    }
    switch ran {
    case .finished(let result): return try result.get()
    case .interrupted(let signal):
      // Said only when the delivery had not started: its own end says nothing more.
      if earlier != nil || phase.wasInnermost { interrupted(signal, true) }
      return .interrupted(signal)
    }
  }
}

/// A delivery channel of a run as the ``RunDriver`` sees it: something a signal stops.
protocol StoppableChannel: Sendable {
  /// Gives up everything at once, cancelling what is under way and giving back what is
  /// held, and returns once every outcome has been reported.
  func stop() async
  /// Gives back what it holds for a while (Control-Z), returning once it has.
  func suspend() async
  /// Takes back what ``suspend()`` gave back.
  func resume() async
}

extension StoppableChannel {
  func suspend() async {}
  func resume() async {}
}
