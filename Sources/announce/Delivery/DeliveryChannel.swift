import AnnouncerCore

/// One channel of a run as the ``DeliveryLoop`` drives it: it takes each item, reports
/// what becomes of it through ``ChannelReporting``, and hears what the run's other
/// channels did with it. Speech (``SpeechChannel``) and the braille display
/// (``BrailleChannel``) are two; a new channel is one more type of this protocol, and
/// nothing in the loop, the sinks or the history changes.
protocol DeliveryChannel: StoppableChannel {
  /// Which channel it is.
  var channel: Channel { get }
  /// Whether it shows the item's text (``DeliveryItem/shown``), which is made only then.
  var showsText: Bool { get }
  /// Starts reporting to `reports`; called once, before the first item.
  func start(reporting reports: any ChannelReporting)
  /// Returns once the channel can take another item: a channel with an inbox of its own
  /// holds the input back here.
  func ready() async
  /// Why the channel cannot deliver `announcement`, built from an input line, which the
  /// line is then rejected for; `nil` to take it.
  func check(_ announcement: Announcement) async -> LineError?
  /// Delivers `item`, without waiting: what becomes of it is reported.
  func deliver(_ item: DeliveryItem)
  /// What another channel of the run did.
  func hear(_ news: PeerNews)
  /// Returns once every item delivered has its outcome reported, and what the channel
  /// holds is given back.
  func finish() async
}

extension DeliveryChannel {
  var showsText: Bool { false }
  func ready() async {}
  func check(_ announcement: Announcement) async -> LineError? { nil }
  func hear(_ news: PeerNews) {}
}

/// Where a channel reports what happens to its items: the ``DeliveryLoop``, which hands
/// each report to the sinks, the plan and the other channels.
protocol ChannelReporting: Sendable {
  /// `report` happened, just now.
  func report(_ report: any ChannelReport)
}
