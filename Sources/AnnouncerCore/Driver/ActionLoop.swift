/// The one loop that drives a state machine: it owns the machine's state (the body),
/// reads one merged inbox in batches, keeps the one timer and the shared turn, and
/// closes. ``Announcer`` and ``BrailleFlasher`` both run on it; what differs between
/// them is their body, which performs their machine's actions.
///
/// Modelled on swift-async-algorithms' `merge` with `AsyncTimerSequence`: one loop reads
/// one stream of inputs, and the timer is a value the loop owns.
final class ActionLoop<Body: LoopBody>: Sendable {
  /// Where every input of the loop goes: the body's own, timer wake-ups and turn grants.
  let inbox: Inbox<LoopInput<Body>>
  private let task: Task<Void, Never>

  /// Starts the loop; `makeBody` builds the state the loop owns, in the loop.
  ///
  /// - Parameters:
  ///   - time: the clock's time since the driver started.
  ///   - turns: the turn shared with other processes.
  init(time: TimeSource, turns: any SpeakingTurns, makeBody: @escaping @Sendable () -> Body) {
    let inbox = Inbox<LoopInput<Body>>()
    self.inbox = inbox
    task = Task {
      var body = makeBody()
      var loop = LoopContext<Body>(time: time, inbox: inbox, turns: turns)
      // Everything that has arrived is taken in one go: one wake-up per batch.
      while let batch = await inbox.next() {
        for input in batch {
          let now = time.now()
          switch input {
          case .input(let input):
            body.handle(input, now: now, loop: &loop)
          case .timer:
            loop.timerFired()
            body.tick(now: now, loop: &loop)
          case .turnTaken(let owner, let request):
            guard loop.granted(owner, request: request) else { break }
            body.turnTaken(owner, now: now, loop: &loop)
          }
          loop.arm(body.deadline, keepingEarlier: Body.keepsEarlierTimer)
          body.settle(loop: &loop)
        }
      }
      body.finish(now: time.now(), loop: &loop)
      loop.close()
    }
  }

  /// Sends `input` to the body; `false`, and dropped, once the loop is closing.
  @discardableResult
  func send(_ input: Body.Input) -> Bool {
    inbox.send(.input(input))
  }

  /// Takes no more inputs; the loop handles those already sent, then finishes its body.
  func finish() {
    inbox.finish()
  }

  /// Returns once the loop has finished its body.
  func closed() async {
    await task.value
  }
}
