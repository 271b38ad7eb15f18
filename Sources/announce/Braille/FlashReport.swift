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

  /// Its JSON line: `shown` or `not-shown`, with how long it was shown or why not, the key
  /// that said it was read, and whether it went with speech.
  var jsonLine: String {
    var object = EventJSON.Object()
    object.string("event", eventName)
    object.raw("id", String(id.rawValue))
    object.string("text", text)
    object.raw("time", EventJSON.seconds(time))
    switch outcome {
    case .shown(let duration), .acknowledged(let duration):
      object.raw("duration", EventJSON.seconds(duration))
    case .notShown(let failure): object.string("reason", failure.rawValue)
    }
    if let key { object.string("acknowledged", key) }
    if withSpeech { object.raw("withSpeech", "true") }
    return object.line
  }

  /// Its `--verbose` line, in braille's own words, never speech's.
  var verboseLine: String {
    let what: String
    switch outcome {
    case .shown(let duration), .acknowledged(let duration):
      what = localized("shown on the braille display for {seconds} seconds")
        .replacingBytes(of: "{seconds}", with: NumberWords.written(EventJSON.seconds(duration, decimals: 2)))
    case .notShown(let failure):
      what = localized("not shown on the braille display: {reason}")
        .replacingBytes(of: "{reason}", with: failure.inAFewWords)
    }
    return
      "\(NumberWords.written(EventJSON.seconds(time, decimals: 2))) s: \"\(EventDescription.shortened(text))\": \(what)"
  }

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
    return whole.jsonLine
  }

  /// The `event` of a flash delivered on the display.
  static let shownEvent = "shown"
  /// The `event` of a flash that was not.
  static let notShownEvent = "not-shown"
}
