import AnnouncerCore

/// The final outcome of one announcement on one ``Channel``, in that channel's own terms.
enum ChannelOutcome: Sendable, Equatable {
  /// What became of the speech.
  case speech(Outcome)
  /// What became of the flash on the braille display.
  case braille(BrailleOutcome)
  /// What became of the desktop notification.
  case notification(NotificationOutcome)

  /// The channel it happened on.
  var channel: Channel {
    switch self {
    case .speech: .speech
    case .braille: .braille
    case .notification: .notification
    }
  }

  /// Why the channel did not deliver it; `nil` when it did.
  var failure: ChannelFailure? {
    switch self {
    case .speech(.spoken): nil
    case .speech(.gaveUp(let reason)): .speech(reason)
    case .braille(.shown), .braille(.acknowledged): nil
    case .braille(.notShown(let failure)): .braille(failure)
    case .notification(let outcome): NotificationFailure(outcome).map { .notification($0) }
    }
  }
}
