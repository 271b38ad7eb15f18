import AnnouncerCore

/// One announcement as the ``DeliveryLoop`` hands it to every channel of the run: built
/// once per input line, so that no channel makes its text speakable or showable again.
struct DeliveryItem: Sendable {
  /// The announcement's id, the same on every channel.
  let id: AnnouncementID
  /// The announcement as it is spoken: ``Announcement/asSpoken``, computed here once,
  /// with every setting the line gave.
  let spoken: Announcement
  /// The text as it is shown: the words, never SSML's markup, on one line.
  let shown: String
  /// The channels it goes to, each of which ends it with an outcome of its own.
  let channels: Set<Channel>

  /// The item of `announcement`, as `id`, for `channels`.
  init(id: AnnouncementID, announcement: Announcement, channels: Set<Channel>) {
    self.id = id
    spoken = announcement.asSpoken
    shown = ShownText.oneLine(spoken.text, ssml: spoken.isSSML)
    self.channels = channels
  }
}
