import AnnouncerCore

/// What one channel of a run hears of another, in the delivery loop's words, never in
/// the other channel's own types: the braille display learns that the speech of an
/// announcement is over as "speech finished with item 3: not delivered".
enum PeerNews: Sendable, Equatable {
  /// `channel` is done with announcement `id`, in this way.
  case finished(Channel, AnnouncementID, PeerEnding)
  /// `channel` began a summary of announcements flood control left out, saying `text`
  /// under `id` (its own, no announcement of the user's), ahead of those still waiting.
  case summaryBegan(Channel, AnnouncementID, text: String)
}

/// How a channel was done with an announcement, as the other channels hear it.
enum PeerEnding: Sendable, Equatable {
  /// It delivered it.
  case delivered
  /// It did not, for a reason of the announcement's own (such as a timeout).
  case notDelivered
  /// Flood control left it out, or it joined an equal one still waiting.
  case skipped
  /// The channel's service is unavailable, or the run cancelled it.
  case failed

  /// The ending of `outcome`; `nil` (an announcement sharing another's outcome) is
  /// skipped.
  init(outcome: ChannelOutcome?) {
    guard let outcome else {
      self = .skipped
      return
    }
    guard let failure = outcome.failure else {
      self = .delivered
      return
    }
    if failure.wasSkipped {
      self = .skipped
    } else if failure.meansServiceUnavailable || failure.wasCancelled {
      self = .failed
    } else {
      self = .notDelivered
    }
  }
}
