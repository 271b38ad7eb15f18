/// What an ``ActionLoop`` lends its body while it handles an input: the time, the inbox,
/// the one timer and the shared turn.
struct LoopContext<Body: LoopBody> {
  /// Where the turn stands.
  private enum TurnState {
    case free
    /// Waiting in line for `owner`; `request` tells a late grant from a current one.
    case waiting(Body.TurnOwner, request: Int, task: Task<Void, Never>)
    case held(Body.TurnOwner)
  }

  let time: TimeSource
  let inbox: Inbox<LoopInput<Body>>
  private let turns: any SpeakingTurns
  private var turn = TurnState.free
  private var lastTurnRequest = 0
  private var timer: (deadline: Duration, task: Task<Void, Never>)?

  init(time: TimeSource, inbox: Inbox<LoopInput<Body>>, turns: any SpeakingTurns) {
    self.time = time
    self.inbox = inbox
    self.turns = turns
  }

  /// Sends `input` to the body, to be handled after the current one.
  @discardableResult
  func send(_ input: Body.Input) -> Bool {
    inbox.send(.input(input))
  }

  // MARK: The turn

  /// Takes the turn for `owner`, giving back any it held: `true` when it was free and is
  /// now held; `false` when `owner` waits in line, and the grant comes back as
  /// ``LoopBody/turnTaken(_:now:loop:)``.
  mutating func takeTurn(for owner: Body.TurnOwner) -> Bool {
    releaseTurn()
    if turns.tryTake() {
      turn = .held(owner)
      return true
    }
    lastTurnRequest += 1
    let request = lastTurnRequest
    let turns = self.turns
    let inbox = self.inbox
    let task = Task {
      do {
        try await turns.take()
        inbox.send(.turnTaken(owner, request: request))
      } catch {
        // Cancelled: the owner finished or gave back its place.
      }
    }
    turn = .waiting(owner, request: request, task: task)
    return false
  }

  /// Gives back the turn or the place in line, if there is one.
  mutating func releaseTurn() {
    switch turn {
    case .free: return
    case .waiting(_, _, let task): task.cancel()
    case .held: break
    }
    turns.release()
    turn = .free
  }

  /// Whether the grant of `request` for `owner` is the current one; it is held from now.
  mutating func granted(_ owner: Body.TurnOwner, request: Int) -> Bool {
    guard case .waiting(owner, request, _) = turn else { return false }
    turn = .held(owner)
    return true
  }

  // MARK: The timer

  /// The armed timer has fired.
  mutating func timerFired() {
    timer = nil
  }

  /// Arms the timer for `deadline`.
  ///
  /// With `keepingEarlier`, a timer is replaced only by an earlier one: a timer that fires
  /// before the deadline, or when there is none any more, only causes a tick with nothing
  /// to do, after which the timer is armed again. Replacing it at every change cost the
  /// announcer a task per announcement, and a cancelled sleep keeps its memory until its
  /// original deadline (up to 5 s later): with announcements finishing at once, that held
  /// tens of MiB. A flash has a few deadlines in its whole life, so the flasher replaces
  /// its timer whenever the deadline changes.
  mutating func arm(_ deadline: Duration?, keepingEarlier: Bool) {
    if keepingEarlier {
      guard let deadline else { return }
      if let armed = timer?.deadline, armed <= deadline { return }
    } else if timer?.deadline == deadline {
      return
    }
    timer?.task.cancel()
    timer = nil
    guard let deadline else { return }
    let time = self.time
    let inbox = self.inbox
    let task = Task {
      do {
        try await time.sleep(until: deadline)
        inbox.send(.timer)
      } catch {
        // Cancelled: another deadline replaced this one.
      }
    }
    timer = (deadline, task)
  }

  /// Cancels the timer and gives back the turn: the loop has ended.
  mutating func close() {
    timer?.task.cancel()
    timer = nil
    releaseTurn()
  }
}
