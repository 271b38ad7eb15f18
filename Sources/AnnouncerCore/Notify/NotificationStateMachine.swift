/// The life of one desktop notification: posted, on screen, and ended with one outcome.
///
/// Plain data, like ``BrailleFlashStateMachine``: every input is a `mutating func` that
/// takes the current time and returns the ``Action``s the driver must perform. It never
/// sleeps, never reads a clock and never talks to the bus itself.
///
/// The rules:
/// - It is posted at once; the server answers with its id, or refuses it
///   (``NotificationOutcome/failed(reason:)``).
/// - On screen, the server's `NotificationClosed` ends it: expired is
///   ``NotificationOutcome/expired``; dismissed by the user is
///   ``NotificationOutcome/seen(after:)``; closed by a call, ours or another client's, or
///   for no reason given, is ``NotificationOutcome/closed``. An action the user invoked
///   is seen as well.
/// - The run waits for it at most `wait` after it was posted. Then it stays on screen for
///   the user, and ends as ``NotificationOutcome/shown(duration:)``: announce does not close
///   what the user may still read, and a server that holds notifications back ("do not
///   disturb") shows it later, so it is not missed either.
/// - A stop (a signal ends the run) closes it, and ends it as ``NotificationOutcome/closed``.
///   A stop before the server gave its id closes it as soon as the id comes.
/// - The server leaving the bus ends it as ``NotificationOutcome/noServer``.
/// - Inputs after the end are ignored: the server's signals about a notification that
///   has ended, or one that was not ours, change nothing.
package struct NotificationStateMachine: Sendable {
  /// What the driver must do next, in the order returned.
  package enum Action: Equatable, Sendable {
    /// Post the notification; then call ``posted(id:now:)`` or ``refused(_:now:)``.
    case post
    /// Ask the server to close the notification with this id.
    case close(UInt32)
    /// The notification is over with this outcome. Only a ``close(_:)`` may follow.
    case finish(NotificationOutcome)
  }

  private enum State: Equatable, Sendable {
    case notStarted
    case posting(since: Duration)
    case onScreen(id: UInt32, since: Duration)
    /// Ended before the server gave its id: the notification is closed when it comes.
    case abandoned
    case finished(id: UInt32?)
  }

  private var state = State.notStarted
  private let wait: Duration

  /// - Parameter wait: how long the run waits for the notification's end after posting it.
  package init(wait: Duration) {
    self.wait = wait
  }

  /// The notification's id, once the server gave it.
  package var id: UInt32? {
    switch state {
    case .onScreen(let id, _): id
    case .finished(let id): id
    case .notStarted, .posting, .abandoned: nil
    }
  }

  /// Whether it has its outcome.
  package var isFinished: Bool {
    switch state {
    case .finished, .abandoned: true
    case .notStarted, .posting, .onScreen: false
    }
  }

  /// When the wait ends, for a ``tick(now:)``; `nil` when nothing is waited for.
  package var deadline: Duration? {
    switch state {
    case .posting(let since), .onScreen(_, let since): since + wait
    case .notStarted, .abandoned, .finished: nil
    }
  }

  package mutating func start(now: Duration) -> [Action] {
    guard state == .notStarted else { return [] }
    state = .posting(since: now)
    return [.post]
  }

  package mutating func posted(id: UInt32, now: Duration) -> [Action] {
    switch state {
    case .posting(let since):
      state = .onScreen(id: id, since: since)
      return now >= since + wait ? tick(now: now) : []
    case .abandoned:
      state = .finished(id: id)
      return [.close(id)]
    case .notStarted, .onScreen, .finished:
      return []
    }
  }

  package mutating func refused(_ reason: String, now: Duration) -> [Action] {
    switch state {
    case .posting:
      state = .finished(id: nil)
      return [.finish(.failed(reason: reason))]
    case .abandoned:
      state = .finished(id: nil)
      return []
    case .notStarted, .onScreen, .finished:
      return []
    }
  }

  package mutating func closed(id: UInt32, reason: NotificationCloseReason, now: Duration) -> [Action] {
    guard case .onScreen(let ours, let since) = state, ours == id else { return [] }
    state = .finished(id: id)
    switch reason {
    case .expired: return [.finish(.expired)]
    case .dismissed: return [.finish(.seen(after: now - since))]
    case .closedByCall, .undefined: return [.finish(.closed)]
    }
  }

  package mutating func actionInvoked(id: UInt32, now: Duration) -> [Action] {
    guard case .onScreen(let ours, let since) = state, ours == id else { return [] }
    state = .finished(id: id)
    return [.finish(.seen(after: now - since))]
  }

  /// The server left the bus, or the connection broke.
  package mutating func lost(now: Duration) -> [Action] {
    switch state {
    case .posting, .onScreen:
      state = .finished(id: id)
      return [.finish(.noServer)]
    case .abandoned:
      state = .finished(id: nil)
      return []
    case .notStarted, .finished:
      return []
    }
  }

  package mutating func tick(now: Duration) -> [Action] {
    guard case .onScreen(let id, let since) = state, now >= since + wait else { return [] }
    state = .finished(id: id)
    return [.finish(.shown(duration: now - since))]
  }

  /// A signal ends the run: closes what is on screen.
  package mutating func stop(now: Duration) -> [Action] {
    switch state {
    case .notStarted:
      state = .finished(id: nil)
      return [.finish(.closed)]
    case .posting:
      state = .abandoned
      return [.finish(.closed)]
    case .onScreen(let id, _):
      state = .finished(id: id)
      return [.close(id), .finish(.closed)]
    case .abandoned, .finished:
      return []
    }
  }
}
