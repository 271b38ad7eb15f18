import AnnouncerCore

/// Why a desktop notification was not delivered, in the channel's own words: the
/// outcomes of ``NotificationOutcome`` that are neither seen nor shown. The log and the
/// JSON events name it by its raw value.
enum NotificationFailure: String, Hashable, Sendable {
  /// It timed out on screen, and nobody dismissed it.
  case expired
  /// announce closed it for a signal, or another client did.
  case closed
  /// No session bus, or no notification server on it.
  case noServer = "no-server"
  /// The server refused it.
  case failed
  /// Flood control left it out.
  case skipped

  /// The failure of `outcome`; `nil` for one that was delivered.
  init?(_ outcome: NotificationOutcome) {
    switch outcome {
    case .seen, .shown: return nil
    case .expired: self = .expired
    case .closed: self = .closed
    case .noServer: self = .noServer
    case .failed: self = .failed
    case .skipped: self = .skipped
    }
  }

  /// The failure in a few words, for `--verbose` and `announce history`, in the
  /// language of the locale.
  var inAFewWords: String {
    switch self {
    case .expired: localized("expired unseen")
    case .closed: localized("closed before it was seen")
    case .noServer: localized("no notification server")
    case .failed: localized("refused by the notification server")
    case .skipped: localized("skipped in a flood")
    }
  }
}
