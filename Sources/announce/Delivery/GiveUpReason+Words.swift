import AnnouncerCore

extension GiveUpReason {
  /// ``causeAndFix`` in the language of the locale: the end of a "Not delivered" line.
  /// The core knows no gettext, so its reasons are worded here; each English message is
  /// the core's phrase word for word (`SpeechdConnectWordsTests` holds them to it).
  var printedCauseAndFix: String {
    switch self {
    case .interruptedOutOfTime: localized("other speech interrupted it until its timeout ran out")
    case .noRetry: localized("other speech interrupted it and its timeout of 0 allows no retry")
    case .stalled:
      localized(
        "speech-dispatcher began but never finished speaking it, so its audio output is probably broken; check that PulseAudio or PipeWire is running and read speech-dispatcher's log in ~/.cache/speech-dispatcher/log"
      )
    case .notAnswering:
      localized(
        "speech-dispatcher stopped answering, so it is probably stopped or frozen; resume a stopped one with kill -CONT, or kill it and start it again"
      )
    case .disconnected:
      localized("the connection to speech-dispatcher was lost and did not come back in time")
    case .cancelled: localized("it was cancelled")
    case .dropped: localized("too many announcements were waiting, so it was skipped")
    case .unreachable: localized("no connection to speech-dispatcher could be made")
    case .notStarted: localized("the background process that was to speak it could not be started")
    }
  }

  /// The line that says an announcement saying `text`, and `along` more waiting after
  /// it, were given up for this reason, in the language of the locale.
  func notDeliveredLine(_ text: String, along: Int) -> String {
    guard along > 0 else {
      // TRANSLATORS: {text} is the start of the announcement; {reason} says why and what to do.
      return localized("Not delivered: \"{text}\": {reason}.", ["text": text, "reason": printedCauseAndFix])
    }
    if along == 1 {
      return localized(
        "Not delivered: \"{text}\" and the announcement waiting after it: {reason}.",
        ["text": text, "reason": printedCauseAndFix])
    }
    // The announcement's own words are filled in last, so that braces in them stay as they are.
    return localized(
      "Not delivered: \"{text}\" and the {count} announcement waiting after it: {reason}.",
      plural: "Not delivered: \"{text}\" and the {count} announcements waiting after it: {reason}.",
      count: along
    )
    .replacingBytes(of: "{count}", with: String(along))
    .replacingBytes(of: "{reason}", with: printedCauseAndFix)
    .replacingBytes(of: "{text}", with: text)
  }

  /// ``inAFewWords`` in the language of the locale, as `announce history` lists it.
  var printedInAFewWords: String {
    switch self {
    case .interruptedOutOfTime: localized("interrupted")
    case .noRetry: localized("interrupted, no retry")
    case .stalled: localized("audio stalled")
    case .notAnswering: localized("speech-dispatcher not answering")
    case .disconnected: localized("speech-dispatcher went away")
    case .cancelled: localized("cancelled")
    case .dropped: localized("skipped in a flood")
    case .unreachable: localized("speech-dispatcher unreachable")
    case .notStarted: localized("background process not started")
    }
  }
}
