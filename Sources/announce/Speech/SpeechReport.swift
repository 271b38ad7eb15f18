import AnnouncerCore

/// One of speech's events, as the run's sinks get it the moment it happens: its
/// `--json` and `--verbose` lines, and, for `spoken` and `gave-up`, how it ends the
/// announcement on speech.
struct SpeechReport: ChannelReport {
  /// The announcer's event.
  let event: AnnouncerEvent

  init(_ event: AnnouncerEvent) { self.event = event }

  var channel: Channel { .speech }
  var id: AnnouncementID { event.announcement }
  /// The text of the event: of the part it is about, for a text spoken in parts.
  var text: String { event.text }
  var jsonLine: String { EventJSON.line(for: event) }
  var verboseLine: String { EventDescription.line(for: event) }

  var ending: ChannelEnding? {
    switch event.kind {
    case .spoken(let duration):
      ChannelEnding(
        outcome: .speech(.spoken(attempts: event.attempt, duration: duration)), recorded: !isSummary)
    case .gaveUp(let reason): ChannelEnding(outcome: .speech(.gaveUp(reason)), recorded: !isSummary)
    // A merged line shares the outcome of the one it joined, which is recorded.
    case .merged: ChannelEnding(outcome: nil, recorded: false)
    case .queued, .attempt, .begin, .mark, .interrupted, .waitingForQuiet, .waitingForConnection,
      .waitingForTurn:
      nil
    }
  }

  var news: PeerNews? {
    if case .attempt = event.kind, isSummary { return .summaryBegan(.speech, id, text: text) }
    return ending.map { .finished(.speech, id, PeerEnding(outcome: $0.outcome)) }
  }

  var notDeliveredLine: String? {
    guard case .gaveUp(let reason) = event.kind,
      // Dropped ones are summed up at the end instead of one line each.
      reason != .dropped,
      // Those given up along with an earlier one that found the speech service
      // unavailable are named in that one's sentence: one sentence per failure.
      event.givenUpWith == nil
    else { return nil }
    return reason.notDeliveredLine(EventDescription.shortened(event.text), along: event.givenUpAlong)
  }

  /// The announcement as it was queued, whose text is the whole one, not a part's.
  func recorded(_ queued: Announcement?) -> Announcement { queued ?? Announcement(event.text) }

  func jsonLine(withText text: String) -> String {
    var whole = event
    whole.text = text
    return EventJSON.line(for: whole)
  }

  /// Flood control's summary ("12 messages skipped") is said under a negative id: it is
  /// no announcement of the user's, and the ones it stands for are recorded as missed.
  private var isSummary: Bool { event.announcement.rawValue < 0 }
}
