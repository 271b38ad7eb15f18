import AnnouncerCore

/// One announcement as the ``DeliveryLoop`` hands it to every channel of the run: built
/// once per input line, so that no channel makes its text speakable or showable again.
struct DeliveryItem: Sendable {
  /// The announcement's id, the same on every channel.
  let id: AnnouncementID
  /// The announcement as it is spoken: ``Announcement/asSpoken``, computed here once,
  /// with every setting the line gave.
  let spoken: Announcement
  /// The text as it is shown: the words, never SSML's markup, on one line; made only
  /// when a channel of the run shows text, else the spoken text.
  let shown: String
  /// The channels it goes to, each of which ends it with an outcome of its own.
  let channels: Set<Channel>
  /// The whole text, when a long one is said shortened (``LongText``): the history keeps it.
  let whole: String?

  /// The item of `announcement`, as `id`, for `channels`; `showing` when one of them
  /// shows the text: making it walks the text's every scalar, which a run with speech
  /// alone, such as bench/run's row 6c of 50,000 lines, would do for nothing.
  init(
    id: AnnouncementID, announcement: Announcement, channels: Set<Channel>, showing: Bool = true,
    whole: String? = nil
  ) {
    self.id = id
    spoken = announcement.asSpoken
    shown = showing ? ShownText.oneLine(spoken.text, ssml: spoken.isSSML) : spoken.text
    self.channels = channels
    self.whole = whole
  }
}
