import AnnouncerCore

/// The outcome of one announcement's desktop notification, as the run's sinks get it the
/// moment it is known: the channel's own words (seen, shown, expired, closed, no-server,
/// failed, skipped), never speech's or braille's.
struct NotificationReport: ChannelReport, Equatable {
  /// The announcement it showed.
  var id: AnnouncementID
  /// The text as shown: the notification's summary.
  var text: String
  /// How it ended.
  var outcome: NotificationOutcome
  /// The action the user invoked, when one was.
  var action: String?
  /// When it ended, since the channel opened.
  var time: Duration

  var channel: Channel { .notification }

  var jsonLine: String { jsonLine(withText: text) }

  /// Its JSON line: the outcome's name as `event`, and `"via":"notification"`, which tells
  /// it from a braille flash's `shown` in the same stream.
  func jsonLine(withText text: String) -> String {
    var line = "{\"event\":" + EventJSON.quoted(outcome.name) + ",\"id\":" + String(id.rawValue)
    line += ",\"text\":" + EventJSON.quoted(text) + ",\"time\":" + EventJSON.seconds(time)
    switch outcome {
    case .seen(let after): line += ",\"after\":" + EventJSON.seconds(after)
    case .shown(let duration): line += ",\"duration\":" + EventJSON.seconds(duration)
    case .failed(let reason): line += ",\"reason\":\"failed\",\"error\":" + EventJSON.quoted(reason)
    case .expired, .closed, .noServer, .skipped:
      if let failure = NotificationFailure(outcome) { line += ",\"reason\":\"" + failure.rawValue + "\"" }
    }
    if let action { line += ",\"action\":" + EventJSON.quoted(action) }
    return line + ",\"via\":\"notification\"}"
  }

  var verboseLine: String {
    let what: String
    switch outcome {
    case .seen: what = localized("seen on the desktop")
    case .shown: what = localized("shown on the desktop, not yet seen")
    case .failed(let reason):
      what = (NotificationFailure(outcome)?.inAFewWords ?? "") + " (" + reason + ")"
    case .expired, .closed, .noServer, .skipped:
      what = NotificationFailure(outcome)?.inAFewWords ?? outcome.name
    }
    return
      "\(NumberWords.written(EventJSON.seconds(time, decimals: 2), in: .printed)) s: \"\(EventDescription.shortened(text))\": \(what)"
  }

  var ending: ChannelEnding? { ChannelEnding(outcome: .notification(outcome), recorded: true) }

  /// Said when this channel had to deliver and did not; not for a server that is missing
  /// (said once for the run) nor for flood control (summed up in one sentence).
  var notDeliveredLine: String? {
    guard let failure = NotificationFailure(outcome), failure != .noServer, failure != .skipped else {
      return nil
    }
    var reason = failure.inAFewWords
    if case .failed(let words) = outcome { reason += " (" + words + ")" }
    let why = localized("its desktop notification was not seen: {reason}").replacingBytes(
      of: "{reason}", with: reason)
    return localized(
      "Not delivered: \"{text}\": {reason}.", ["text": EventDescription.shortened(text), "reason": why])
  }
}
