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
  /// A channel other than speech reports something, such as a braille flash's outcome,
  /// the moment it is known; the report says how each sink words it.
  func reported(_ report: any ChannelReport)
}

extension EventSink {
  func queued(_ announcement: Announcement, as id: AnnouncementID) {}
  func reported(_ report: any ChannelReport) {}
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

  func reported(_ report: any ChannelReport) {
    terminal.standardOutput(report.jsonLine)
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

  func reported(_ report: any ChannelReport) {
    terminal.error(report.verboseLine)
  }
}
