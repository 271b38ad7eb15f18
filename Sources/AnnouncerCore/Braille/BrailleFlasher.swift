import Synchronization

/// Identifies one flash within a ``BrailleFlasher``, in the order they were asked for.
public struct BrailleFlashID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The position in order, from 1.
  public let rawValue: Int
  /// Wraps a sequence number.
  public init(_ rawValue: Int) { self.rawValue = rawValue }
  /// Earlier flashes come first.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  /// The sequence number as text.
  public var description: String { String(rawValue) }
}

/// Something that happened to a flash.
public struct BrailleEvent: Sendable, Equatable {
  /// The flash it happened to.
  public var flash: BrailleFlashID
  /// When it happened, since the flasher started.
  public var time: Duration
  /// What happened.
  public var kind: BrailleEventKind
  /// For a flash that could not take the display: why, in one sentence.
  public var problem: BrailleUnavailable?
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
/// let flasher = BrailleFlasher(display: display)
/// let flash = flasher.show("Build failed", withSpeech: false)
/// let outcome = await flasher.outcome(of: flash)
/// await flasher.close()
/// ```
public final class BrailleFlasher: Sendable {
  fileprivate enum Input: Sendable {
    case show(BrailleFlashID, String, withSpeech: Bool, limit: Duration?)
    case speechFinished(BrailleFlashID, Outcome)
    case display(BrailleDisplayInput)
    case entered(serial: Int, Result<Int, BrailleUnavailable>)
    case turnTaken(request: Int)
    case timer
    case outcome(BrailleFlashID, CheckedContinuation<BrailleOutcome, Never>)
    case cancelAll(CheckedContinuation<Void, Never>)
  }

  fileprivate enum Operation: Sendable {
    case enter(serial: Int)
    case setPriority(UInt32)
    case write(String)
    case leave
    /// Resumes once every operation before it has been performed.
    case barrier(CheckedContinuation<Void, Never>)
  }

  private let inputs = Inbox<Input>()
  private let display: any BrailleDisplay
  private let subscribers = EventHub<BrailleEvent>()
  private let lastID = Mutex(0)
  private let forwarder: Task<Void, Never>
  private let performer: Task<Void, Never>
  private let loop: Task<Void, Never>

  /// Creates a flasher that shows on `display`.
  ///
  /// - Parameters:
  ///   - display: usually a ``BrlapiDisplay``.
  ///   - clock: the clock panning, flash times and bounds are measured with.
  ///   - timing: the reading pace and flash times.
  ///   - turns: the braille turn shared with other announce processes.
  public init<C: Clock>(
    display: some BrailleDisplay, clock: C = ContinuousClock(), timing: BrailleTiming = BrailleTiming(),
    turns: some SpeakingTurns = AlwaysYourTurn()
  ) where C.Duration == Duration {
    self.display = display
    let inputs = self.inputs
    let (operationStream, operations) = AsyncStream.makeStream(of: Operation.self)
    forwarder = Task {
      for await input in display.inputs { inputs.send(.display(input)) }
    }
    // Performs display operations one at a time, in order; it ends once the loop has
    // finished the operations stream.
    performer = Task {
      for await operation in operationStream {
        switch operation {
        case .enter(let serial): inputs.send(.entered(serial: serial, await display.enterTtyMode()))
        case .setPriority(let priority): await display.setPriority(priority)
        case .write(let text): await display.write(text)
        case .leave: await display.leaveTtyMode()
        case .barrier(let done): done.resume()
        }
      }
    }
    let time = TimeSource(clock)
    let publish = subscribers.publish
    loop = Task {
      var driver = FlashLoop(
        timing: timing, address: display.address, time: time, inputs: inputs,
        operations: operations, turns: turns, publish: publish)
      while let batch = await inputs.next() {
        for input in batch { driver.handle(input) }
      }
      driver.finish()
      operations.finish()
    }
  }

  deinit {
    inputs.finish()
  }

  /// Queues `text` to be shown after every flash asked for before it.
  ///
  /// - Parameters:
  ///   - withSpeech: whether it goes with speech; it is then held until
  ///     ``speechFinished(_:outcome:)`` is called for it.
  ///   - limit: the longest it may be held once shown; `nil` for no limit.
  @discardableResult
  public func show(_ text: String, withSpeech: Bool, limit: Duration? = nil) -> BrailleFlashID {
    let id = lastID.withLock {
      $0 += 1
      return BrailleFlashID($0)
    }
    inputs.send(.show(id, text, withSpeech: withSpeech, limit: limit))
    return id
  }

  /// The speech that goes with `flash` has its final outcome.
  public func speechFinished(_ flash: BrailleFlashID, outcome: Outcome) {
    inputs.send(.speechFinished(flash, outcome))
  }

  /// Waits for the final outcome of `flash`.
  public func outcome(of flash: BrailleFlashID) async -> BrailleOutcome {
    await withCheckedContinuation { continuation in
      if !inputs.send(.outcome(flash, continuation)) {
        continuation.resume(returning: .notShown(.cancelled))
      }
    }
  }

  /// A stream of everything that happens from now on. Subscribe before showing to miss nothing.
  public func events() -> AsyncStream<BrailleEvent> {
    subscribers.subscribe()
  }

  /// Ends every flash with ``BrailleFailure/cancelled`` and gives the display back: for a
  /// signal, or when the run ends early.
  ///
  /// Returns once brltty has been told, or after `bound` when it does not answer.
  public func cancelAll(waitingAtMost bound: Duration = .seconds(1)) async {
    let inputs = self.inputs
    _ = await Deadline.wait(atMost: bound) {
      await withCheckedContinuation { continuation in
        if !inputs.send(.cancelAll(continuation)) { continuation.resume() }
      }
    }
  }

  /// Cancels what is left, gives the display back and closes the connection.
  ///
  /// Waits at most `bound`: a stopped brltty never answers.
  public func close(waitingAtMost bound: Duration = .seconds(1)) async {
    inputs.finish()
    let loop = self.loop
    let performer = self.performer
    let display = self.display
    _ = await Deadline.wait(atMost: bound) {
      await loop.value
      await performer.value
      await display.close()
    }
    forwarder.cancel()
    subscribers.finishAll()
  }
}

/// The state the flasher's loop owns.
private struct FlashLoop {
  private struct Flash {
    let id: BrailleFlashID
    var machine: BrailleFlashStateMachine
  }

  private enum TurnState {
    case free
    case waiting(request: Int, task: Task<Void, Never>)
    case held
  }

  let timing: BrailleTiming
  let address: String
  let time: TimeSource
  let inputs: Inbox<BrailleFlasher.Input>
  let operations: AsyncStream<BrailleFlasher.Operation>.Continuation
  let turns: any SpeakingTurns
  let publish: @Sendable (BrailleEvent) -> Void

  /// The flash being shown (or taking the display), then those waiting, in order.
  private var flashes: [Flash] = []
  private var outcomes: [BrailleFlashID: BrailleOutcome] = [:]
  private var waiters: [BrailleFlashID: [CheckedContinuation<BrailleOutcome, Never>]] = [:]
  private var turn = TurnState.free
  private var lastTurnRequest = 0
  /// The serial of the entry into tty mode asked for last, and whether it still matters.
  private var enterSerial = 0
  private var enterPending = false
  private var lastProblem: BrailleUnavailable?
  private var timer: (deadline: Duration, task: Task<Void, Never>)?

  init(
    timing: BrailleTiming, address: String, time: TimeSource, inputs: Inbox<BrailleFlasher.Input>,
    operations: AsyncStream<BrailleFlasher.Operation>.Continuation, turns: any SpeakingTurns,
    publish: @escaping @Sendable (BrailleEvent) -> Void
  ) {
    self.timing = timing
    self.address = address
    self.time = time
    self.inputs = inputs
    self.operations = operations
    self.turns = turns
    self.publish = publish
  }

  mutating func handle(_ input: BrailleFlasher.Input) {
    let now = time.now()
    switch input {
    case .show(let id, let text, let withSpeech, let limit):
      let machine = BrailleFlashStateMachine(text, timing: timing, withSpeech: withSpeech, limit: limit)
      flashes.append(Flash(id: id, machine: machine))
      if flashes.count == 1 { startCurrent(now: now) }
    case .speechFinished(let id, let outcome):
      if let index = flashes.firstIndex(where: { $0.id == id }) {
        let actions = flashes[index].machine.speechFinished(outcome, now: now)
        perform(actions, on: index, now: now)
      }
    case .display(let event):
      guard !flashes.isEmpty else { break }
      switch event {
      case .key(let key): perform(flashes[0].machine.keyPressed(key, now: now), on: 0, now: now)
      case .lost: perform(flashes[0].machine.displayLost(now: now), on: 0, now: now)
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
        perform(flashes[0].machine.displayReady(cells: cells, now: now), on: 0, now: now)
      case .failure(let error):
        lastProblem = error
        perform(flashes[0].machine.displayUnavailable(error.failure, now: now), on: 0, now: now)
      }
    case .turnTaken(let request):
      guard case .waiting(request, _) = turn, !flashes.isEmpty else { break }
      turn = .held
      perform(flashes[0].machine.turnTaken(now: now), on: 0, now: now)
    case .timer:
      timer = nil
      if !flashes.isEmpty { perform(flashes[0].machine.tick(now: now), on: 0, now: now) }
    case .outcome(let id, let waiter):
      if let outcome = outcomes[id] {
        waiter.resume(returning: outcome)
      } else {
        waiters[id, default: []].append(waiter)
      }
    case .cancelAll(let done):
      cancelEverything(now: now)
      operations.yield(.barrier(done))
    }
    rearmTimer()
  }

  /// Gives back the display and ends every flash; called when the flasher closes.
  mutating func finish() {
    cancelEverything(now: time.now())
    timer?.task.cancel()
    for (_, list) in waiters { for waiter in list { waiter.resume(returning: .notShown(.cancelled)) } }
    waiters = [:]
  }

  private mutating func cancelEverything(now: Duration) {
    // From the last, so that the one on the display is given back before the next starts.
    while let index = flashes.indices.last {
      perform(flashes[index].machine.cancel(now: now), on: index, now: now)
    }
  }

  private mutating func startCurrent(now: Duration) {
    guard !flashes.isEmpty else { return }
    perform(flashes[0].machine.start(now: now), on: 0, now: now)
  }

  private mutating func perform(
    _ actions: [BrailleFlashStateMachine.Action], on index: Int, now: Duration
  ) {
    let id = flashes[index].id
    var pending = actions[...]
    while let action = pending.popFirst() {
      switch action {
      case .takeTurn:
        if turns.tryTake() {
          turn = .held
          pending += flashes[index].machine.turnTaken(now: now)
        } else {
          waitForTurn()
          pending += flashes[index].machine.turnBusy(now: now)
        }
      case .releaseTurn:
        releaseTurn()
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
        if index == 0 { enterPending = false }
        publish(BrailleEvent(flash: id, time: now, kind: .finished(outcome), problem: problem(for: outcome)))
        lastProblem = nil
        outcomes[id] = outcome
        for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume(returning: outcome) }
        flashes.remove(at: index)
        if index == 0 { startCurrent(now: now) }
        return
      }
    }
  }

  /// Why `outcome` means the display could not be used, in one sentence; `nil` when it does not.
  private func problem(for outcome: BrailleOutcome) -> BrailleUnavailable? {
    guard case .notShown(let failure) = outcome else { return nil }
    switch failure {
    case .unavailable: return lastProblem
    case .notAnswering: return .notAnswering(address)
    case .displayLost: return .lost(address)
    case .outOfTime, .speechFailed, .cancelled: return nil
    }
  }

  /// Waits in line for the turn in a task of its own; the grant comes back as an input.
  private mutating func waitForTurn() {
    lastTurnRequest += 1
    let request = lastTurnRequest
    let turns = self.turns
    let inputs = self.inputs
    let task = Task {
      do {
        try await turns.take()
        inputs.send(.turnTaken(request: request))
      } catch {
        // Cancelled: the flash finished or gave back its place.
      }
    }
    turn = .waiting(request: request, task: task)
  }

  private mutating func releaseTurn() {
    switch turn {
    case .free: return
    case .waiting(_, let task): task.cancel()
    case .held: break
    }
    turns.release()
    turn = .free
  }

  /// Arms the timer for the current flash's deadline, replacing one armed for another
  /// time: a flash has a few deadlines in its whole life, so unlike the announcer's
  /// (thousands of announcements) there is no cost worth saving by keeping early ones.
  private mutating func rearmTimer() {
    let deadline = flashes.first?.machine.deadline
    if timer?.deadline == deadline { return }
    timer?.task.cancel()
    timer = nil
    guard let deadline else { return }
    let time = self.time
    let inputs = self.inputs
    let task = Task {
      do {
        try await time.sleep(until: deadline)
        inputs.send(.timer)
      } catch {
        // Cancelled: an earlier deadline replaced this one.
      }
    }
    timer = (deadline, task)
  }
}
