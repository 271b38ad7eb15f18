extension Announcer {
  /// The announcer's body on the ``ActionLoop``: the queue, who waits for what, and the
  /// backend operations the queue's actions become.
  struct DriverLoop: LoopBody {
    typealias TurnOwner = AnnouncementID

    static var keepsEarlierTimer: Bool { true }

    var queue: AnnouncementQueue
    let operations: AsyncStream<BackendOperation>.Continuation
    let publish: @Sendable (AnnouncerEvent) -> Void
    let backendAnswers: BackendAnswers
    var outcomeWaiters: [AnnouncementID: CheckedContinuation<Outcome, Never>] = [:]
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var roomWaiters: [(limit: Int, waiter: CheckedContinuation<Void, Never>)] = []

    var deadline: Duration? { queue.deadline }

    mutating func handle(_ input: Input, now: Duration, loop: inout LoopContext<Self>) {
      switch input {
      case .enqueue(let id, let announcement, let waiter):
        if let waiter { outcomeWaiters[id] = waiter }
        perform(queue.enqueue(announcement, id: id, now: now, awaited: waiter != nil), loop: &loop)
      case .speech(let event):
        perform(queue.handle(event, now: now), loop: &loop)
      case .accepted(let submission, let messageID):
        backendAnswers.value = true
        perform(queue.submissionAccepted(submission, messageID: messageID, now: now), loop: &loop)
      case .failed(let submission):
        backendAnswers.value = true
        perform(queue.submissionFailed(submission, now: now), loop: &loop)
      case .cancelAll(let done):
        perform(queue.cancelAll(now: now).filter { $0 != .cancelSpeech }, loop: &loop)
        operations.yield(.cancel(done))
      case .whenIdle(let waiter):
        idleWaiters.append(waiter)
      case .whenRoom(let limit, let waiter):
        roomWaiters.append((limit, waiter))
      case .whenQueued(let waiter):
        waiter.resume()
      }
    }

    mutating func tick(now: Duration, loop: inout LoopContext<Self>) {
      perform(queue.tick(now: now), loop: &loop)
    }

    mutating func turnTaken(_ id: AnnouncementID, now: Duration, loop: inout LoopContext<Self>) {
      perform(queue.turnTaken(id, now: now), loop: &loop)
    }

    mutating func settle(loop: inout LoopContext<Self>) {
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
    mutating func finish(now: Duration, loop: inout LoopContext<Self>) {
      loop.releaseTurn()
      for (_, waiter) in outcomeWaiters { waiter.resume(returning: .gaveUp(.cancelled)) }
      for waiter in idleWaiters { waiter.resume() }
      for entry in roomWaiters { entry.waiter.resume() }
      outcomeWaiters = [:]
      idleWaiters = []
      roomWaiters = []
      operations.finish()
    }

    private mutating func perform(_ actions: [AnnouncementQueue.Action], loop: inout LoopContext<Self>) {
      // Taking a free turn answers at once; its actions run after the ones already here.
      var pending = actions[...]
      while let action = pending.popFirst() {
        switch action {
        case .submit(let request, let submission):
          operations.yield(.say(request, submission))
        case .cancelSpeech:
          operations.yield(.cancel(nil))
        case .takeTurn(let id):
          if loop.takeTurn(for: id) {
            pending += queue.turnTaken(id, now: loop.time.now())
          } else {
            pending += queue.turnBusy(id, now: loop.time.now())
          }
        case .releaseTurn:
          loop.releaseTurn()
        case .report(let event):
          publish(event)
        case .deliver(let id, let outcome):
          if outcome == .gaveUp(.notAnswering) { backendAnswers.value = false }
          outcomeWaiters.removeValue(forKey: id)?.resume(returning: outcome)
        }
      }
    }
  }
}
