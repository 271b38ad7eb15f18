import AnnouncerCore

/// Somewhere the command reports what happens, as the user asked: the JSON stream of
/// `--json`, the plain lines of `--verbose`, or the history (``HistoryRecorder``).
///
/// Every sink takes the same values, so each one formats them itself and none reads
/// another's text back; every channel's reports, speech's included, come through the
/// one ``reported(_:)``.
protocol EventSink: Sendable {
  /// A channel reports something the moment it is known, such as one of speech's events
  /// or a braille flash's outcome; the report says how each sink words it.
  func reported(_ report: any ChannelReport)
  /// Input line `line` could not become an announcement; `time` is since the run started.
  func rejected(line: Int, input: String, reason: String, time: Duration)
  /// `item` is about to be delivered on its channels; their reports follow.
  func queued(_ item: DeliveryItem)
}

extension EventSink {
  func queued(_ item: DeliveryItem) {}
}

/// `--json`: every event and rejected line as a JSON object on standard output.
struct JSONEventStream: EventSink {
  let terminal: Terminal

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

  func rejected(line: Int, input: String, reason: String, time: Duration) {}

  func reported(_ report: any ChannelReport) {
    terminal.error(report.verboseLine)
  }
}
