import Synchronization

extension Announcer {
  /// Where the loop stands with the speaking turn.
  enum TurnState {
    case free
    /// Waiting in line for announcement `id`; `request` tells a late grant from a current one.
    case waiting(AnnouncementID, request: Int, task: Task<Void, Never>)
    case held(AnnouncementID)
  }

  /// The state the loop owns: the queue, who waits for what, and the armed timer.
  struct DriverLoop {
    var queue: AnnouncementQueue
    let time: TimeSource
    let inputs: Inbox<Input>
    let operations: AsyncStream<BackendOperation>.Continuation
    let turns: any SpeakingTurns
    let publish: @Sendable (AnnouncerEvent) -> Void
    let backendAnswers: BackendAnswers
    var turn = TurnState.free
    var lastTurnRequest = 0
    var outcomeWaiters: [AnnouncementID: CheckedContinuation<Outcome, Never>] = [:]
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var roomWaiters: [(limit: Int, waiter: CheckedContinuation<Void, Never>)] = []
    var timer: (deadline: Duration, task: Task<Void, Never>)?

    mutating func handle(_ input: Input) {
      let now = time.now()
      switch input {
      case .enqueue(let id, let announcement, let waiter):
        if let waiter { outcomeWaiters[id] = waiter }
        perform(queue.enqueue(announcement, id: id, now: now, awaited: waiter != nil))
      case .speech(let event):
        perform(queue.handle(event, now: now))
      case .accepted(let submission, let messageID):
        backendAnswers.value = true
        perform(queue.submissionAccepted(submission, messageID: messageID, now: now))
      case .failed(let submission):
        backendAnswers.value = true
        perform(queue.submissionFailed(submission, now: now))
      case .timer:
        timer = nil
        perform(queue.tick(now: now))
      case .turnTaken(let id, let request):
        guard case .waiting(id, request, _) = turn else { break }
        turn = .held(id)
        perform(queue.turnTaken(id, now: now))
      case .cancelAll(let done):
        perform(queue.cancelAll(now: now).filter { $0 != .cancelSpeech })
        operations.yield(.cancel(done))
      case .whenIdle(let waiter):
        idleWaiters.append(waiter)
      case .whenRoom(let limit, let waiter):
        roomWaiters.append((limit, waiter))
      case .whenQueued(let waiter):
        waiter.resume()
      }
      rearmTimer()
      if queue.isIdle {
        for waiter in idleWaiters { waiter.resume() }
        idleWaiters = []
      }
      let waiting = queue.waitingCount
      roomWaiters.removeAll { entry in
        guard waiting < entry.limit else { return false }
        entry.waiter.resume()
        return true
      }
    }

    /// Resumes everyone still waiting; called when the announcer closes.
    mutating func finish() {
      timer?.task.cancel()
      releaseTurn()
      for (_, waiter) in outcomeWaiters { waiter.resume(returning: .gaveUp(.cancelled)) }
      for waiter in idleWaiters { waiter.resume() }
      for entry in roomWaiters { entry.waiter.resume() }
      outcomeWaiters = [:]
      idleWaiters = []
      roomWaiters = []
    }

    private mutating func perform(_ actions: [AnnouncementQueue.Action]) {
      // Taking a free turn answers at once; its actions run after the ones already here.
      var pending = actions[...]
      while let action = pending.popFirst() {
        switch action {
        case .submit(let request, let submission):
          operations.yield(.say(request, submission))
        case .cancelSpeech:
          operations.yield(.cancel(nil))
        case .takeTurn(let id):
          releaseTurn()
          if turns.tryTake() {
            turn = .held(id)
            pending += queue.turnTaken(id, now: time.now())
          } else {
            waitForTurn(id)
            pending += queue.turnBusy(id, now: time.now())
          }
        case .releaseTurn:
          releaseTurn()
        case .report(let event):
          publish(event)
        case .deliver(let id, let outcome):
          if outcome == .gaveUp(.notAnswering) { backendAnswers.value = false }
          outcomeWaiters.removeValue(forKey: id)?.resume(returning: outcome)
        }
      }
    }

    /// Waits in line for the turn in a task of its own; the grant comes back as an input.
    private mutating func waitForTurn(_ id: AnnouncementID) {
      lastTurnRequest += 1
      let request = lastTurnRequest
      let turns = self.turns
      let inputs = self.inputs
      let task = Task {
        do {
          try await turns.take()
          inputs.send(.turnTaken(id, request: request))
        } catch {
          // Cancelled: the announcement finished or gave back its place.
        }
      }
      turn = .waiting(id, request: request, task: task)
    }

    /// Gives back the turn or the place in line, if there is one.
    private mutating func releaseTurn() {
      switch turn {
      case .free: return
      case .waiting(_, _, let task): task.cancel()
      case .held: break
      }
      turns.release()
      turn = .free
    }

    private mutating func rearmTimer() {
      // A timer that fires before the deadline, or when there is none any more, only
      // causes a tick with nothing to do, after which the timer is armed again. So a
      // timer is replaced only by an earlier one. Replacing it at every change cost a
      // task per announcement, and a cancelled sleep keeps its memory until its
      // original deadline (up to 5 s later): with announcements finishing at once,
      // that held tens of MiB.
      guard let deadline = queue.deadline else { return }
      if let armed = timer?.deadline, armed <= deadline { return }
      timer?.task.cancel()
      timer = nil
      let time = self.time
      let inputs = self.inputs
      let task = Task {
        do {
          try await time.sleep(until: deadline)
          inputs.send(.timer)
        } catch {
          // Cancelled: a newer deadline replaced this one.
        }
      }
      timer = (deadline, task)
    }
  }
}
