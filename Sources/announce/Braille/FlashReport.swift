import AnnouncerCore

/// The outcome of one announcement's flash on the braille display, as the run's sinks
/// get it the moment the flash ends: braille's own outcome, never told in speech's words.
struct FlashReport: ChannelReport, Equatable {
  /// The announcement it showed.
  var id: AnnouncementID
  /// The text as shown: the words, never SSML's markup.
  var text: String
  /// How the flash ended.
  var outcome: BrailleOutcome
  /// The key that said it was read, when one did.
  var key: String?
  /// Whether it went with speech (`--braille`), whose own outcome then says whether the
  /// announcement was delivered; `false` with `--braille-only`.
  var withSpeech: Bool
  /// When it ended, since the display was opened.
  var time: Duration

  /// The `event` of its JSON line and record: `shown` for a flash shown for its whole
  /// time or acknowledged with a key, `not-shown` otherwise.
  var eventName: String { outcome.wasDelivered ? Self.shownEvent : Self.notShownEvent }

  var channel: Channel { .braille }

  var jsonLine: String { EventJSON.line(for: self) }

  var verboseLine: String { EventDescription.line(for: self) }

  var ending: ChannelEnding? { ChannelEnding(outcome: .braille(outcome), recorded: true) }

  var notDeliveredLine: String? {
    guard outcome == .notShown(.outOfTime) else { return nil }
    return localized(
      "Not delivered: \"{text}\": its timeout ran out before it could be read at the braille pace; raise --timeout, or --braille-pace.",
      ["text": EventDescription.shortened(text)])
  }

  func jsonLine(withText text: String) -> String {
    var whole = self
    whole.text = text
    return EventJSON.line(for: whole)
  }

  /// The `event` of a flash delivered on the display.
  static let shownEvent = "shown"
  /// The `event` of a flash that was not.
  static let notShownEvent = "not-shown"
}
