import AnnouncerCore

/// Why one channel did not deliver an announcement, in that channel's own terms: a
/// braille display that went away is braille's failure, never speech's.
enum ChannelFailure: Hashable, Sendable {
  /// The speech gave up, for this reason.
  case speech(GiveUpReason)
  /// The flash was not shown for its whole time, for this reason.
  case braille(BrailleFailure)
  /// The desktop notification was not seen, for this reason.
  case notification(NotificationFailure)

  /// The channel that failed.
  var channel: Channel {
    switch self {
    case .speech: .speech
    case .braille: .braille
    case .notification: .notification
    }
  }

  /// Whether the channel's service itself is unavailable (speech-dispatcher, the audio
  /// output, the braille display, or the notification server): the command's 69 rather than 1.
  var meansServiceUnavailable: Bool {
    switch self {
    case .speech(let reason): reason.meansServiceUnavailable
    case .braille(let failure): failure.meansDisplayUnavailable
    case .notification(let failure): failure == .noServer
    }
  }

  /// Whether flood control left it out: summed up in one sentence rather than one each.
  var wasSkipped: Bool {
    switch self {
    case .speech(let reason): reason == .dropped
    case .braille(let failure): failure == .skipped
    case .notification(let failure): failure == .skipped
    }
  }

  /// Whether the run cancelled it, for a signal.
  var wasCancelled: Bool {
    switch self {
    case .speech(let reason): reason == .cancelled
    case .braille(let failure): failure == .cancelled
    case .notification(let failure): failure == .closed
    }
  }
}
