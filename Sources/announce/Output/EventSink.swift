import AnnouncerCore

/// Somewhere the command reports what happens, as the user asked: the JSON stream of
/// `--json`, the plain lines of `--verbose`, or the history (``HistoryRecorder``).
///
/// Every sink takes the same values, so each one formats them itself and none reads
/// another's text back.
protocol EventSink: Sendable {
  /// Something happened to an announcement.
  func record(_ event: AnnouncerEvent)
  /// Input line `line` could not become an announcement; `time` is since the run started.
  func rejected(line: Int, input: String, reason: String, time: Duration)
  /// `announcement` was queued as `id`; its events follow.
  func queued(_ announcement: Announcement, as id: AnnouncementID)
  /// A key pressed on the braille display said that announcement `id` was read; `time`
  /// is since the braille display was opened.
  func acknowledged(_ id: AnnouncementID, text: String, key: String, time: Duration)
  /// The braille flash of an announcement ended, after any
  /// ``acknowledged(_:text:key:time:)``: braille's outcome, reported the moment it is known.
  func flashFinished(_ report: FlashReport)
}

extension EventSink {
  func queued(_ announcement: Announcement, as id: AnnouncementID) {}
  func acknowledged(_ id: AnnouncementID, text: String, key: String, time: Duration) {}
  func flashFinished(_ report: FlashReport) {}
}

/// `--json`: every event and rejected line as a JSON object on standard output.
struct JSONEventStream: EventSink {
  let terminal: Terminal

  func record(_ event: AnnouncerEvent) {
    terminal.standardOutput(EventJSON.line(for: event))
  }

  func rejected(line: Int, input: String, reason: String, time: Duration) {
    terminal.standardOutput(
      EventJSON.rejected(lineNumber: line, input: input, reason: reason, time: time))
  }

  func acknowledged(_ id: AnnouncementID, text: String, key: String, time: Duration) {
    terminal.standardOutput(EventJSON.acknowledged(id: id, text: text, key: key, time: time))
  }

  func flashFinished(_ report: FlashReport) {
    terminal.standardOutput(EventJSON.line(for: report))
  }
}

/// `--verbose`: one plain line per event on standard error. Rejected lines need no line
/// here: the command says so whether verbose or not.
struct VerboseLines: EventSink {
  let terminal: Terminal

  func record(_ event: AnnouncerEvent) {
    terminal.error(EventDescription.line(for: event))
  }

  func rejected(line: Int, input: String, reason: String, time: Duration) {}

  func acknowledged(_ id: AnnouncementID, text: String, key: String, time: Duration) {
    terminal.error(
      "\(EventJSON.seconds(time, decimals: 2)) s: \"\(EventDescription.shortened(text))\": read on the braille display (\(key) pressed)"
    )
  }

  func flashFinished(_ report: FlashReport) {
    terminal.error(EventDescription.line(for: report))
  }
}
