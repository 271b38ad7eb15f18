import Synchronization

/// Identifies one flash within a ``BrailleFlasher``, in the order they were asked for.
package struct BrailleFlashID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The position in order, from 1.
  package let rawValue: Int
  /// Wraps a sequence number.
  package init(_ rawValue: Int) { self.rawValue = rawValue }
  /// Earlier flashes come first.
  package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  /// The sequence number as text.
  package var description: String { String(rawValue) }
}

/// Something that happened to a flash.
package struct BrailleEvent: Sendable, Equatable {
  /// The flash it happened to.
  package var flash: BrailleFlashID
  /// When it happened, since the flasher started.
  package var time: Duration
  /// What happened.
  package var kind: BrailleEventKind
  /// For a flash that could not take the display: why, in one sentence.
  package var problem: BrailleUnavailable?
}

/// Shows announcements on a braille display one after another, in order, and gives the
/// display back after each.
///
/// The driver around ``BrailleFlashStateMachine``: one loop owns the flashes, reads one
/// merged stream of inputs (requests, keys, the display's answers, speech outcomes,
/// timer wake-ups) and performs the actions the machine returns, on the display one at a
/// time. Time comes from the injected clock, so tests use a manual one.
///
/// ```swift
/// let flasher = try await BrailleFlasher.brltty(environment: environment).get()
/// let flash = flasher.show("Build failed", withSpeech: false)
/// let outcome = await flasher.outcome(of: flash)
/// await flasher.close()
/// ```
package final class BrailleFlasher: Sendable {
  fileprivate enum Input: Sendable {
    case show(BrailleFlashID, String, withSpeech: Bool, limit: Duration?, before: BrailleFlashID?)
    case othersFinished(BrailleFlashID, FlashRelease)
    case display(BrailleDisplayInput)
    case entered(serial: Int, Result<Int, BrailleUnavailable>)
    case outcome(BrailleFlashID, CheckedContinuation<BrailleOutcome?, Never>)
    case drain(CheckedContinuation<Void, Never>)
    case keptCount(CheckedContinuation<Int, Never>)
    case cancelAll(CheckedContinuation<Void, Never>)
    case suspend(CheckedContinuation<Void, Never>)
    case resume
  }

  fileprivate enum Operation: Sendable {
    case enter(serial: Int)
    case setPriority(UInt32)
    case write(String)
    case leave
    /// Takes the display again after a suspension and shows this text.
    case reshow(String)
    /// Resumes once every operation before it has been performed.
    case barrier(CheckedContinuation<Void, Never>)
  }

  private let loop: ActionLoop<FlashLoop>
  private let display: any BrailleDisplay
  private let subscribers = EventHub<BrailleEvent>()
  private let lastID = Mutex(0)
  private let forwarder: Task<Void, Never>
  private let performer: Task<Void, Never>

  /// Creates a flasher that shows on `display`.
  ///
  /// - Parameters:
  ///   - display: usually a ``BrlapiDisplay``.
  ///   - clock: the clock panning, flash times and bounds are measured with.
  ///   - timing: the reading pace and flash times.
  ///   - turns: the braille turn shared with other announce processes.
  package init<C: Clock>(
    display: some BrailleDisplay, clock: C = ContinuousClock(), timing: BrailleTiming = BrailleTiming(),
    turns: some SpeakingTurns = AlwaysYourTurn()
  ) where C.Duration == Duration {
    self.display = display
    let (operationStream, operations) = AsyncStream.makeStream(of: Operation.self)
    let publish = subscribers.publish
    let address = display.address
    let loop = ActionLoop<FlashLoop>(time: TimeSource(clock), turns: turns) {
      FlashLoop(timing: timing, address: address, operations: operations, publish: publish)
    }
    self.loop = loop
    forwarder = Task {
      for await input in display.inputs { loop.send(.display(input)) }
    }
    // Performs display operations one at a time, in order; it ends once the loop has
    // finished the operations stream.
    performer = Task {
      for await operation in operationStream {
        switch operation {
        case .enter(let serial): loop.send(.entered(serial: serial, await display.enterTtyMode()))
        case .setPriority(let priority): await display.setPriority(priority)
        case .write(let text): await display.write(text)
        case .leave: await display.leaveTtyMode()
        case .reshow(let text):
          if case .success = await display.enterTtyMode() {
            await display.setPriority(BrailleFlashStateMachine.Priority.flash.rawValue)
            await display.write(text)
          }
        case .barrier(let done): done.resume()
        }
      }
    }
  }

  deinit {
    loop.finish()
  }

  /// Queues `text` to be shown after every flash asked for before it.
  ///
  /// - Parameters:
  ///   - withSpeech: whether it goes with speech or another channel; it is then held
  ///     until ``othersFinished(_:release:)`` is called for it.
  ///   - limit: the longest it may be held once shown; `nil` for no limit.
  @discardableResult
  package func show(_ text: String, withSpeech: Bool, limit: Duration? = nil) -> BrailleFlashID {
    show(text, withSpeech: withSpeech, limit: limit, before: nil)
  }

  /// ``show(_:withSpeech:limit:)``, but ahead of `later` when that flash is still waiting
  /// for the display: for flood control's summary, which comes before the flashes it kept.
  @discardableResult
  package func show(
    _ text: String, withSpeech: Bool, limit: Duration? = nil, before later: BrailleFlashID?
  ) -> BrailleFlashID {
    let id = lastID.withLock {
      $0 += 1
      return BrailleFlashID($0)
    }
    loop.send(.show(id, text, withSpeech: withSpeech, limit: limit, before: later))
    return id
  }

  /// Flood control left `flash` out: one not yet shown ends at once as
  /// ``BrailleFailure/skipped``, one on the display is left to end as it would.
  package func skip(_ flash: BrailleFlashID) {
    loop.send(.othersFinished(flash, .leaveOut))
  }

  /// The other channels of `flash`'s announcement are done with it.
  package func othersFinished(_ flash: BrailleFlashID, release: FlashRelease) {
    loop.send(.othersFinished(flash, release))
  }

  /// Waits for the final outcome of `flash`. The flasher keeps the outcomes of only the
  /// last ``keptOutcomes`` flashes that ended with nobody waiting (every outcome is in
  /// ``events()`` too): for one that ended before those, this is `nil`.
  package func outcome(of flash: BrailleFlashID) async -> BrailleOutcome? {
    await withCheckedContinuation { continuation in
      if !loop.send(.outcome(flash, continuation)) {
        continuation.resume(returning: .notShown(.cancelled))
      }
    }
  }

  /// How many outcomes of ended flashes nobody waited for are kept for
  /// ``outcome(of:)``. A run that follows `tail -f` shows flashes for days: keeping every
  /// outcome grew its memory by tens of bytes a line.
  package static let keptOutcomes = 32

  /// Waits until every flash asked for so far has ended (or the flasher closed).
  package func drain() async {
    await withCheckedContinuation { continuation in
      if !loop.send(.drain(continuation)) { continuation.resume() }
    }
  }

  /// How many flashes, outcomes and waiters the flasher holds now: what grows with the
  /// flashes shown unless they are let go once ended. For tests.
  package func keptCount() async -> Int {
    await withCheckedContinuation { continuation in
      if !loop.send(.keptCount(continuation)) { continuation.resume(returning: 0) }
    }
  }

  /// A stream of everything that happens from now on. Subscribe before showing to miss nothing.
  package func events() -> AsyncStream<BrailleEvent> {
    subscribers.subscribe()
  }

  /// Ends every flash with ``BrailleFailure/cancelled`` and gives the display back: for a
  /// signal, or when the run ends early.
  ///
  /// Returns once brltty has been told, or after `bound` when it does not answer.
  package func cancelAll(waitingAtMost bound: Duration = .seconds(1)) async {
    let loop = self.loop
    _ = await Race.within(bound) {
      await withCheckedContinuation { continuation in
        if !loop.send(.cancelAll(continuation)) { continuation.resume() }
      }
    }
  }

  /// Gives the display back for a while, as for Control-Z, keeping every flash: the
  /// screen reader's own line is seen while the process is stopped. Returns once brltty
  /// has been told, or after `bound` when it does not answer.
  package func suspend(waitingAtMost bound: Duration = .seconds(1)) async {
    let loop = self.loop
    _ = await Race.within(bound) {
      await withCheckedContinuation { continuation in
        if !loop.send(.suspend(continuation)) { continuation.resume() }
      }
    }
  }

  /// Takes the display again after ``suspend(waitingAtMost:)`` and shows the flash that
  /// is still due where it was; one whose time ran out meanwhile ends at once.
  package func resume() {
    loop.send(.resume)
  }

  /// Cancels what is left, gives the display back and closes the connection.
  ///
  /// Waits at most `bound`: a stopped brltty never answers.
  package func close(waitingAtMost bound: Duration = .seconds(1)) async {
    loop.finish()
    let loop = self.loop
    let performer = self.performer
    let display = self.display
    _ = await Race.within(bound) {
      await loop.closed()
      await performer.value
      await display.close()
    }
    forwarder.cancel()
    subscribers.finishAll()
  }
}

/// The flasher's body on the ``ActionLoop``: the flashes in order, who waits for which
/// outcome, and the display operations the current flash's actions become.
private struct FlashLoop: LoopBody {
  typealias TurnOwner = BrailleFlashID

  private struct Flash {
    let id: BrailleFlashID
    var machine: BrailleFlashStateMachine
  }

  /// A flash has a few deadlines in its whole life, so unlike the announcer's (thousands
  /// of announcements) there is no cost worth saving by keeping early timers.
  static var keepsEarlierTimer: Bool { false }

  let timing: BrailleTiming
  let address: String
  let operations: AsyncStream<BrailleFlasher.Operation>.Continuation
  let publish: @Sendable (BrailleEvent) -> Void

  /// The flash being shown (or taking the display), then those waiting, in order.
  private var flashes: [Flash] = []
  /// The outcomes of the last ``BrailleFlasher/keptOutcomes`` flashes that ended with
  /// nobody waiting, oldest first.
  private var outcomes: [(id: BrailleFlashID, outcome: BrailleOutcome)] = []
  private var waiters: [BrailleFlashID: [CheckedContinuation<BrailleOutcome?, Never>]] = [:]
  /// Who waits for every flash up to an id to end (``BrailleFlasher/drain()``).
  private var drains: [(through: BrailleFlashID, done: CheckedContinuation<Void, Never>)] = []
  /// The serial of the entry into tty mode asked for last, and whether it still matters.
  private var enterSerial = 0
  private var enterPending = false
  private var lastProblem: BrailleUnavailable?
  /// Whether the display was given back for a suspension while a window was shown.
  private var suspended = false

  init(
    timing: BrailleTiming, address: String, operations: AsyncStream<BrailleFlasher.Operation>.Continuation,
    publish: @escaping @Sendable (BrailleEvent) -> Void
  ) {
    self.timing = timing
    self.address = address
    self.operations = operations
    self.publish = publish
  }

  var deadline: Duration? { flashes.first?.machine.deadline }

  mutating func handle(_ input: BrailleFlasher.Input, now: Duration, loop: inout LoopContext<Self>) {
    switch input {
    case .show(let id, let text, let withSpeech, let limit, let later):
      let machine = BrailleFlashStateMachine(text, timing: timing, withSpeech: withSpeech, limit: limit)
      // Never ahead of the current flash, which holds or takes the display.
      if let later, let index = flashes.firstIndex(where: { $0.id == later }), index > 0 {
        flashes.insert(Flash(id: id, machine: machine), at: index)
      } else {
        flashes.append(Flash(id: id, machine: machine))
        if flashes.count == 1 { startCurrent(now: now, loop: &loop) }
      }
    case .othersFinished(let id, let release):
      if let index = flashes.firstIndex(where: { $0.id == id }) {
        let actions = flashes[index].machine.othersFinished(release, now: now)
        perform(actions, on: index, now: now, loop: &loop)
      }
    case .display(let event):
      guard !flashes.isEmpty else { break }
      switch event {
      case .key(let key): perform(flashes[0].machine.keyPressed(key, now: now), on: 0, now: now, loop: &loop)
      case .lost: perform(flashes[0].machine.displayLost(now: now), on: 0, now: now, loop: &loop)
      }
    case .entered(let serial, let result):
      guard serial == enterSerial, enterPending, !flashes.isEmpty else {
        // The flash gave up waiting: give back a display it took after all.
        if case .success = result { operations.yield(.leave) }
        break
      }
      enterPending = false
      switch result {
      case .success(let cells):
        perform(flashes[0].machine.displayReady(cells: cells, now: now), on: 0, now: now, loop: &loop)
      case .failure(let error):
        lastProblem = error
        perform(flashes[0].machine.displayUnavailable(error.failure, now: now), on: 0, now: now, loop: &loop)
      }
    case .outcome(let id, let waiter):
      if let kept = outcomes.last(where: { $0.id == id }) {
        waiter.resume(returning: kept.outcome)
      } else if flashes.contains(where: { $0.id == id }) {
        waiters[id, default: []].append(waiter)
      } else {
        // Ended too long ago to be kept.
        waiter.resume(returning: nil)
      }
    case .drain(let done):
      if let last = flashes.map(\.id).max() {
        drains.append((last, done))
      } else {
        done.resume()
      }
    case .keptCount(let done):
      done.resume(returning: flashes.count + outcomes.count + waiters.count + drains.count)
    case .cancelAll(let done):
      cancelEverything(now: now, loop: &loop)
      operations.yield(.barrier(done))
    case .suspend(let done):
      // The release order of a flash's end: priority 0, then the empty text, then leave.
      if !suspended, flashes.first?.machine.windowText != nil {
        suspended = true
        operations.yield(.setPriority(BrailleFlashStateMachine.Priority.disabled.rawValue))
        operations.yield(.write(""))
        operations.yield(.leave)
      }
      operations.yield(.barrier(done))
    case .resume:
      guard suspended else { break }
      suspended = false
      if let text = flashes.first?.machine.windowText { operations.yield(.reshow(text)) }
    }
  }

  mutating func tick(now: Duration, loop: inout LoopContext<Self>) {
    if !flashes.isEmpty { perform(flashes[0].machine.tick(now: now), on: 0, now: now, loop: &loop) }
  }

  mutating func turnTaken(_ id: BrailleFlashID, now: Duration, loop: inout LoopContext<Self>) {
    guard flashes.first?.id == id else { return }
    perform(flashes[0].machine.turnTaken(now: now), on: 0, now: now, loop: &loop)
  }

  /// Gives back the display and ends every flash; called when the flasher closes.
  mutating func finish(now: Duration, loop: inout LoopContext<Self>) {
    cancelEverything(now: now, loop: &loop)
    for (_, list) in waiters { for waiter in list { waiter.resume(returning: .notShown(.cancelled)) } }
    waiters = [:]
    for drain in drains { drain.done.resume() }
    drains = []
    operations.finish()
  }

  /// Lets go of each drain whose flashes have all ended.
  private mutating func endDrains() {
    guard !drains.isEmpty else { return }
    let oldest = flashes.map(\.id).min()
    drains.removeAll { drain in
      guard oldest.map({ $0 > drain.through }) ?? true else { return false }
      drain.done.resume()
      return true
    }
  }

  private mutating func cancelEverything(now: Duration, loop: inout LoopContext<Self>) {
    // From the last, so that the one on the display is given back before the next starts.
    while let index = flashes.indices.last {
      perform(flashes[index].machine.cancel(now: now), on: index, now: now, loop: &loop)
    }
  }

  private mutating func startCurrent(now: Duration, loop: inout LoopContext<Self>) {
    guard !flashes.isEmpty else { return }
    perform(flashes[0].machine.start(now: now), on: 0, now: now, loop: &loop)
  }

  private mutating func perform(
    _ actions: [BrailleFlashStateMachine.Action], on index: Int, now: Duration, loop: inout LoopContext<Self>
  ) {
    let id = flashes[index].id
    var pending = actions[...]
    while let action = pending.popFirst() {
      switch action {
      case .takeTurn:
        if loop.takeTurn(for: id) {
          pending += flashes[index].machine.turnTaken(now: now)
        } else {
          pending += flashes[index].machine.turnBusy(now: now)
        }
      case .releaseTurn:
        loop.releaseTurn()
      case .enterTtyMode:
        enterSerial += 1
        enterPending = true
        operations.yield(.enter(serial: enterSerial))
      case .setPriority(let priority):
        operations.yield(.setPriority(priority.rawValue))
      case .write(let text):
        operations.yield(.write(text))
      case .leaveTtyMode:
        operations.yield(.leave)
      case .report(let kind):
        publish(BrailleEvent(flash: id, time: now, kind: kind, problem: nil))
      case .finish(let outcome):
        if index == 0 {
          enterPending = false
          suspended = false
        }
        publish(BrailleEvent(flash: id, time: now, kind: .finished(outcome), problem: problem(for: outcome)))
        lastProblem = nil
        if let waiting = waiters.removeValue(forKey: id) {
          for waiter in waiting { waiter.resume(returning: outcome) }
        } else {
          outcomes.append((id, outcome))
          if outcomes.count > BrailleFlasher.keptOutcomes { outcomes.removeFirst() }
        }
        flashes.remove(at: index)
        endDrains()
        if index == 0 { startCurrent(now: now, loop: &loop) }
        return
      }
    }
  }

  /// Why `outcome` means the display could not be used, in one sentence; `nil` when it does not.
  private func problem(for outcome: BrailleOutcome) -> BrailleUnavailable? {
    guard case .notShown(let failure) = outcome else { return nil }
    switch failure {
    case .unavailable: return lastProblem
    case .notAnswering: return .notAnswering(address: address)
    case .displayLost: return .lost(address: address)
    case .outOfTime, .speechFailed, .skipped, .cancelled: return nil
    }
  }
}
