/// How one desktop notification ended, in the channel's own words (docs/notify.md).
package enum NotificationOutcome: Sendable, Equatable {
  /// The user dismissed it, or invoked one of its actions, this long after it appeared.
  case seen(after: Duration)
  /// It was still on screen when the run's wait for it ended: shown, and not known to be
  /// seen. It stays there for the user, so `replay` does not repeat it.
  case shown(duration: Duration)
  /// It timed out on screen and nobody dismissed it: missed, when this channel had to deliver.
  case expired
  /// announce closed it (a signal ended the run), or another client did.
  case closed
  /// There is no notification server, or it left the bus while this one was up.
  case noServer
  /// The server refused it; `reason` is the bus's or the server's.
  case failed(reason: String)
  /// Flood control left it out: more notifications of the run were waited for than
  /// allowed, and one summary notification counts it.
  case skipped

  /// Whether the user has it: seen, or still on screen.
  package var isDelivered: Bool {
    switch self {
    case .seen, .shown: true
    case .expired, .closed, .noServer, .failed, .skipped: false
    }
  }

  /// The outcome's name in events, `--verbose` and the history.
  package var name: String {
    switch self {
    case .seen: "seen"
    case .shown: "shown"
    case .expired: "expired"
    case .closed: "closed"
    case .noServer: "no-server"
    case .failed: "failed"
    case .skipped: "skipped"
    }
  }
}
