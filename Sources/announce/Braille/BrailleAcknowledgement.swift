import AnnouncerCore

/// A key pressed on the braille display said that an announcement's flash was read; its
/// ``FlashReport`` follows.
struct BrailleAcknowledgement: ChannelReport, Equatable {
  /// The announcement the flash showed.
  var id: AnnouncementID
  /// The text as shown.
  var text: String
  /// The key, as brltty names it.
  var key: String
  /// When it was pressed, since the braille display was opened.
  var time: Duration

  var channel: Channel { .braille }

  var jsonLine: String { EventJSON.acknowledged(id: id, text: text, key: key, time: time) }

  var verboseLine: String { verboseLine(in: .printed) }

  /// ``verboseLine`` in `wording`'s language.
  func verboseLine(in wording: Wording) -> String {
    let what = wording.localized("read on the braille display ({key} pressed)").replacingBytes(
      of: "{key}", with: key)
    return
      "\(NumberWords.written(EventJSON.seconds(time, decimals: 2), in: wording)) s: \"\(EventDescription.shortened(text))\": \(what)"
  }
}
