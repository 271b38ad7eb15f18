import AnnouncerCore

/// What a delivery channel tells the run the moment it happens: each of speech's events
/// (``SpeechReport``), a braille flash's outcome (``FlashReport``), a key that said a
/// flash was read. Every channel reports this way, through its ``ChannelReporting``, and
/// every sink takes reports through the one ``EventSink/reported(_:)``.
///
/// Each report words itself for each sink and says how it ends its announcement, so a
/// new channel brings its own reports and no sink, and no reader of the history, changes.
protocol ChannelReport: Sendable {
  /// The channel it comes from.
  var channel: Channel { get }
  /// The announcement it is about.
  var id: AnnouncementID { get }
  /// The text as the channel has it.
  var text: String { get }
  /// Its line in `--json`.
  var jsonLine: String { get }
  /// Its line in `--verbose`.
  var verboseLine: String { get }
  /// How it ends its announcement on its channel; `nil` for a report that ends none.
  var ending: ChannelEnding? { get }
  /// What the run's other channels hear of it, in the delivery loop's words; `nil` for
  /// nothing.
  var news: PeerNews? { get }
  /// The line said when its channel must deliver and did not; `nil` for none.
  var notDeliveredLine: String? { get }
  /// The announcement its record keeps, given the one the run queued (`nil` when the
  /// record has none): the text and the settings to deliver it again.
  func recorded(_ queued: Announcement?) -> Announcement
  /// Its JSON line with `text` in place of its own: its record's, which keeps the whole text.
  func jsonLine(withText text: String) -> String
}

extension ChannelReport {
  var ending: ChannelEnding? { nil }

  /// An ending is news to the other channels: this one is done with the announcement.
  var news: PeerNews? {
    ending.map { .finished(channel, id, PeerEnding(outcome: $0.outcome)) }
  }

  var notDeliveredLine: String? { nil }

  func recorded(_ queued: Announcement?) -> Announcement { Announcement(text) }

  func jsonLine(withText text: String) -> String { jsonLine }
}

/// How a report ends its announcement on its channel.
struct ChannelEnding: Sendable, Equatable {
  /// The channel's final outcome; `nil` when the announcement shares the outcome of
  /// another one, as a line merged into an equal one still waiting does.
  var outcome: ChannelOutcome?
  /// Whether the history records it: not flood control's summary, which is no
  /// announcement of the user's, nor an announcement that shares another's outcome.
  var recorded: Bool
}
