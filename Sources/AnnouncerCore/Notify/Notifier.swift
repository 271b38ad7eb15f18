/// Something that happened to one notification a ``Notifier`` shows.
package struct NotificationEvent: Sendable, Equatable {
  /// The caller's number for it, as given to ``Notifier/show(_:as:wait:)``.
  package var item: Int
  /// When it happened, since the notifier started.
  package var time: Duration
  /// What happened.
  package var kind: Kind

  package enum Kind: Sendable, Equatable {
    /// The user invoked the action with this key; the outcome follows.
    case actionInvoked(String)
    /// It ended with this outcome.
    case finished(NotificationOutcome)
  }
}

/// Shows desktop notifications on a ``NotificationServer`` and tells what became of each.
///
/// The driver around ``NotificationStateMachine``: one ``ActionLoop`` owns every
/// notification of the run, reads the requests and the server's answers and signals as
/// one stream, keeps the one timer (the end of the soonest wait) and performs the actions
/// the machines return. Time comes from the injected clock, so tests use a manual one.
///
/// Flood control: at most `maxOnScreen` notifications are waited for at once; a further
/// one is left out (``NotificationOutcome/skipped``) and counted in one summary
/// notification, which is replaced in place (`replaces_id`) as the count grows
/// (docs/notify.md).
package final class Notifier: Sendable {
  fileprivate enum Input: Sendable {
    case show(Int, NotificationRequest, wait: Duration)
    case server(NotificationServerInput)
    case drain(CheckedContinuation<Void, Never>)
    case stopAll(CheckedContinuation<Void, Never>)
  }

  private let loop: ActionLoop<NotifyLoop>
  private let server: any NotificationServer
  private let subscribers = EventHub<NotificationEvent>()
  private let forwarder: Task<Void, Never>

  /// - Parameters:
  ///   - server: usually an ``SdBusNotificationServer``.
  ///   - clock: the clock the waits are measured with.
  ///   - maxOnScreen: the most notifications waited for at once; `nil` for no bound.
  ///   - summary: the text of flood control's summary for a count of left-out ones.
  package init<C: Clock>(
    server: any NotificationServer, clock: C = ContinuousClock(), maxOnScreen: Int? = nil,
    summary: @escaping @Sendable (Int) -> String = { "\($0) messages skipped" }
  ) where C.Duration == Duration {
    self.server = server
    let publish = subscribers.publish
    let loop = ActionLoop<NotifyLoop>(time: TimeSource(clock), turns: AlwaysYourTurn()) {
      NotifyLoop(server: server, maxOnScreen: maxOnScreen, summary: summary, publish: publish)
    }
    self.loop = loop
    forwarder = Task {
      for await input in server.inputs { loop.send(.server(input)) }
      loop.send(.server(.lost))
    }
  }

  deinit {
    loop.finish()
  }

  /// A stream of everything that happens from now on. Subscribe before showing to miss nothing.
  package func events() -> AsyncStream<NotificationEvent> {
    subscribers.subscribe()
  }

  /// Posts `notification` as the caller's `item`, and waits for its end at most `wait`.
  package func show(_ notification: NotificationRequest, as item: Int, wait: Duration) {
    loop.send(.show(item, notification, wait: wait))
  }

  /// Returns once every notification shown so far has its outcome.
  package func drain() async {
    await withCheckedContinuation { continuation in
      if !loop.send(.drain(continuation)) { continuation.resume() }
    }
  }

  /// Closes every notification still waited for, each ending as
  /// ``NotificationOutcome/closed``: for a signal.
  package func stopAll() async {
    await withCheckedContinuation { continuation in
      if !loop.send(.stopAll(continuation)) { continuation.resume() }
    }
  }

  /// Ends the loop and the connection. Waits at most `bound`: a server that does not
  /// answer holds nothing up.
  package func close(waitingAtMost bound: Duration = .seconds(1)) async {
    loop.finish()
    let loop = self.loop
    let server = self.server
    _ = await Race.within(bound) {
      await loop.closed()
      await server.shutdown()
    }
    forwarder.cancel()
    subscribers.finishAll()
  }
}

/// The notifier's body on the ``ActionLoop``: a machine for each notification waited for.
private struct NotifyLoop: LoopBody {
  typealias TurnOwner = Int
  static var keepsEarlierTimer: Bool { false }

  private struct Shown {
    var machine: NotificationStateMachine
    var request: NotificationRequest
  }

  /// The token of flood control's summary: no item of the caller's is 0 or below.
  private static let summaryToken: UInt64 = 0

  let server: any NotificationServer
  let maxOnScreen: Int?
  let summary: @Sendable (Int) -> String
  let publish: @Sendable (NotificationEvent) -> Void

  private var shown: [Int: Shown] = [:]
  /// The item of each notification id the server gave.
  private var items: [UInt32: Int] = [:]
  private var drains: [CheckedContinuation<Void, Never>] = []
  private var serverGone = false
  private var skipped = 0
  private var summaryID: UInt32 = 0
  /// The count of the summary posted last, while the server has not given its id: a
  /// further count waits for the id, so that it replaces the summary rather than adding
  /// a second one.
  private var summaryPending: Int?

  init(
    server: any NotificationServer, maxOnScreen: Int?, summary: @escaping @Sendable (Int) -> String,
    publish: @escaping @Sendable (NotificationEvent) -> Void
  ) {
    self.server = server
    self.maxOnScreen = maxOnScreen
    self.summary = summary
    self.publish = publish
  }

  var deadline: Duration? { shown.values.compactMap(\.machine.deadline).min() }

  mutating func handle(_ input: Notifier.Input, now: Duration, loop: inout LoopContext<Self>) {
    switch input {
    case .show(let item, let request, let wait):
      if serverGone {
        publish(NotificationEvent(item: item, time: now, kind: .finished(.noServer)))
        return
      }
      if let maxOnScreen, shown.count >= maxOnScreen {
        skip(item, now: now)
        return
      }
      shown[item] = Shown(machine: NotificationStateMachine(wait: wait), request: request)
      perform(item, now: now) { $0.start(now: now) }
    case .server(let answer):
      hear(answer, now: now)
    case .drain(let done):
      if shown.isEmpty { done.resume() } else { drains.append(done) }
    case .stopAll(let done):
      for item in shown.keys.sorted() { perform(item, now: now) { $0.stop(now: now) } }
      done.resume()
    }
    endDrains()
  }

  private mutating func hear(_ answer: NotificationServerInput, now: Duration) {
    switch answer {
    case .posted(Self.summaryToken, let id):
      summaryID = id
      let count = summaryPending
      summaryPending = nil
      if count != skipped { postSummary() }
    case .refused(Self.summaryToken, _):
      summaryPending = nil
    case .posted(let token, let id):
      let item = Int(token)
      // Stopped before the server gave its id: closed now that it has one.
      guard shown[item] != nil else {
        server.close(id)
        return
      }
      items[id] = item
      perform(item, now: now) { $0.posted(id: id, now: now) }
    case .refused(let token, let reason):
      perform(Int(token), now: now) { $0.refused(reason, now: now) }
    case .closed(let id, let reason):
      if id == summaryID { summaryID = 0 }
      guard let item = items[id] else { return }
      perform(item, now: now) { $0.closed(id: id, reason: reason, now: now) }
    case .actionInvoked(let id, let key):
      guard let item = items[id], shown[item] != nil else { return }
      publish(NotificationEvent(item: item, time: now, kind: .actionInvoked(key)))
      perform(item, now: now) { $0.actionInvoked(id: id, now: now) }
    case .lost:
      serverGone = true
      for item in shown.keys.sorted() { perform(item, now: now) { $0.lost(now: now) } }
    }
  }

  /// Flood control leaves `item` out, and shows the count in the one summary, replaced
  /// in place while it is up.
  private mutating func skip(_ item: Int, now: Duration) {
    skipped += 1
    publish(NotificationEvent(item: item, time: now, kind: .finished(.skipped)))
    if summaryPending == nil { postSummary() }
  }

  private mutating func postSummary() {
    summaryPending = skipped
    server.post(
      NotificationRequest(summary: summary(skipped), urgency: .low, replaces: summaryID, actions: []),
      token: Self.summaryToken)
  }

  /// Runs `input` on `item`'s machine and performs what it returns.
  private mutating func perform(
    _ item: Int, now: Duration, _ input: (inout NotificationStateMachine) -> [NotificationStateMachine.Action]
  ) {
    guard var entry = shown[item] else { return }
    let actions = input(&entry.machine)
    shown[item] = entry
    for action in actions {
      switch action {
      case .post: server.post(entry.request, token: UInt64(item))
      case .close(let id): server.close(id)
      case .finish(let outcome):
        publish(NotificationEvent(item: item, time: now, kind: .finished(outcome)))
      }
    }
    if entry.machine.isFinished {
      shown[item] = nil
      if let id = entry.machine.id { items[id] = nil }
    }
  }

  private mutating func endDrains() {
    guard shown.isEmpty else { return }
    for drain in drains { drain.resume() }
    drains = []
  }

  mutating func tick(now: Duration, loop: inout LoopContext<Self>) {
    for item in shown.keys.sorted() { perform(item, now: now) { $0.tick(now: now) } }
    endDrains()
  }

  mutating func turnTaken(_ owner: Int, now: Duration, loop: inout LoopContext<Self>) {}

  mutating func finish(now: Duration, loop: inout LoopContext<Self>) {
    for item in shown.keys.sorted() { perform(item, now: now) { $0.stop(now: now) } }
    for drain in drains { drain.resume() }
    drains = []
  }
}
