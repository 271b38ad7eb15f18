import AnnouncerCore

/// One way an announcement reaches the user. Each channel has its own outcomes and its
/// own reasons for failing (``ChannelOutcome``, ``ChannelFailure``); ``DeliveryPlan``
/// says which of them must deliver in each mode. Each channel's words in `announce
/// history` are here too, so that the history's readers name no channel.
enum Channel: String, Sendable, CaseIterable {
  /// Speech, through speech-dispatcher.
  case speech
  /// A flash on the braille display, through brltty.
  case braille
  /// A desktop notification, through the session bus's notification server.
  case notification
}

extension Channel {
  /// How `announce history` says an announcement was delivered on this channel, in the
  /// language of the locale: "heard", "shown on the braille display".
  func deliveredWords(onReplay: Bool) -> String {
    switch self {
    case .speech: onReplay ? localized("heard on replay") : localized("heard")
    case .braille:
      onReplay
        ? localized("shown on the braille display on replay") : localized("shown on the braille display")
    case .notification:
      onReplay
        ? localized("shown as a desktop notification on replay")
        : localized("shown as a desktop notification")
    }
  }

  /// How `announce history` says an announcement was not delivered on this channel,
  /// with `{reason}` where the reason goes: "not heard ({reason})".
  func notDeliveredWords(onReplay: Bool) -> String {
    switch self {
    case .speech: onReplay ? localized("not heard on replay ({reason})") : localized("not heard ({reason})")
    case .braille: onReplay ? localized("not shown on replay ({reason})") : localized("not shown ({reason})")
    case .notification:
      onReplay
        ? localized("notification not seen on replay ({reason})")
        : localized("notification not seen ({reason})")
    }
  }

  /// The reason `name` of the log, one of this channel's, in a few words; `nil` for a
  /// name the channel does not know.
  func reasonInAFewWords(_ name: String) -> String? {
    switch self {
    case .speech: GiveUpReason(rawValue: name)?.printedInAFewWords
    case .braille: BrailleFailure(rawValue: name)?.inAFewWords
    case .notification: NotificationFailure(rawValue: name)?.inAFewWords
    }
  }
}
