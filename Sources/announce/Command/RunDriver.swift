/// The one owner of a run's ending, after swift-service-lifecycle's `ServiceGroup`: it
/// arms the signals, starts the delivery, and decides the one ending, the first of the
/// delivery finishing (the input ended and every channel is done) or a signal; for
/// `--when-done`, first the wait for the process, raced against a signal the same way. On a
/// signal, every channel is stopped before the result is returned, so our speech is
/// cancelled and the braille display given back before the process exits.
///
/// No channel races the others on its own: a new channel is one more entry in
/// `channels`.
struct RunDriver {
  /// Where the signals come from.
  let signals: any SignalSource

  /// Runs `delivery` until it sums up, or until a signal stops every one of `channels`;
  /// whichever comes first is the result.
  ///
  /// A signal claims the ending as it arrives, so the delivery, which then ends because
  /// its channels were stopped, leaves the result to the signal; a signal that arrives
  /// after the delivery ended changes nothing. The delivery is not waited for after a
  /// signal: it may be blocked reading standard input, and the process exits with the result.
  func run(
    channels: [any StoppableChannel], delivery: @escaping @Sendable () async -> RunSummary
  ) async -> RunResult {
    let (endings, ending) = AsyncStream.makeStream(of: RunResult.self, bufferingPolicy: .bufferingOldest(1))
    let signals = await self.signals.armed { signal in
      // In order, speech first: a stopped brltty must not delay the speech's cancel,
      // and the speech's outcomes reach the display's channel before it closes.
      for channel in channels { await channel.stop() }
      ending.yield(.interrupted(signal))
    }
    defer { signals.disarm() }
    // Control-Z: what is held is given back before the process stops, and taken again
    // when it continues.
    let suspension = await SuspendTrap.armed(
      Suspension(
        whenStopping: { for channel in channels { await channel.suspend() } },
        whenContinued: { for channel in channels { await channel.resume() } }))
    defer { suspension.disarm() }
    // A signal that came before the run armed (between two replayed announcements, or
    // just after --when-done's wait) is handed to it on arming, and its handler gives the
    // ending: nothing may be said then. Started anyway, the delivery said its text after
    // the handler had stopped the speech with nothing under way, and the daemon went on
    // speaking it after the process had exited 130.
    if signals.received == nil {
      Task {
        let summary = await delivery()
        if signals.received == nil { ending.yield(.finished(summary)) }
      }
    }
    var first = endings.makeAsyncIterator()
    guard let result = await first.next() else {
      preconditionFailure("the endings of a run never finish without one")
    }
    return result
  }
}

extension RunDriver {
  /// A run with a wait before it, as `--when-done`'s: the first of the wait's end and a
  /// signal; after the end, the first of the run `then` and a signal. One trap serves
  /// both (see ``SignalRelay``), and a signal that comes before `then` has armed its
  /// own handling ends the run with nothing delivered.
  ///
  /// - Parameters:
  ///   - waited: starts the wait, and calls its argument with the time once the wait is
  ///     over. It is called once the signals are armed, so a signal sent from the moment
  ///     it says that it waits is never lost.
  ///   - interrupted: told of a signal that ends the run before `then` handles signals;
  ///     `afterTheWait` says whether the wait was over.
  ///   - then: the run after the wait, given the time the wait ended and the signals to
  ///     arm, through which it gets a signal that came since.
  func run(
    waitingFor waited: (@escaping @Sendable (Duration) -> Void) throws(RunFailure) -> Void,
    interrupted: @escaping @Sendable (HandledSignal, _ afterTheWait: Bool) -> Void,
    then: @escaping @Sendable (Duration, any SignalSource) async throws(RunFailure) -> RunResult
  ) async throws(RunFailure) -> RunResult {
    let (endings, ending) = AsyncStream.makeStream(
      of: Result<RunResult, RunFailure>.self, bufferingPolicy: .bufferingOldest(1))
    let relay = SignalRelay { signal in
      interrupted(signal, false)
      ending.yield(.success(.interrupted(signal)))
    }
    let trap = await signals.armed { await relay.deliver($0) }
    defer { trap.disarm() }
    try waited { time in
      // Under the relay's lock: a signal that came with the end, and woke nobody yet,
      // has still ended the run, and nothing follows.
      let handedOver = relay.handOver { signal in
        interrupted(signal, true)
        ending.yield(.success(.interrupted(signal)))
      }
      guard handedOver else { return }
      Task {
        do throws(RunFailure) {
          ending.yield(.success(try await then(time, relay)))
        } catch {
          ending.yield(.failure(error))
        }
      }
    }
    var first = endings.makeAsyncIterator()
    guard let result = await first.next() else {
      preconditionFailure("the endings of a run never finish without one")
    }
    return try result.get()
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
