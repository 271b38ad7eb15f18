import AnnouncerCore

/// What an input line becomes: the run's announcement with the line's text, or with a
/// JSON line's text and options (`--input json`), or a JSON document's text; Markdown,
/// the source and a long text's shortening as ``TextReading`` says; SSML is checked here.
enum AnnouncementLineReader {
  /// The announcement of `line` read as `format`, starting from `defaults`, or why it
  /// is rejected.
  static func announcement(
    for line: InputLines.Line, format: InputOptions.Format, defaults: Announcement
  ) -> Result<Announcement, LineError> {
    announcement(for: line, reading: TextReading(format: format), defaults: defaults)
  }

  /// The announcement of `line` read as `reading` says, starting from `defaults`, or why
  /// it is rejected.
  static func announcement(
    for line: InputLines.Line, reading: TextReading, defaults: Announcement
  ) -> Result<Announcement, LineError> {
    read(line, reading: reading, defaults: defaults).map(\.announcement)
  }

  /// What one input line becomes: its announcement, and the whole text the history keeps
  /// when the announcement says a long one shortened.
  struct Read: Sendable {
    var announcement: Announcement
    var whole: String?
  }

  /// What `line` becomes when read as `reading` says, starting from `defaults`, or why it
  /// is rejected.
  static func read(
    _ line: InputLines.Line, reading: TextReading, defaults: Announcement
  ) -> Result<Read, LineError> {
    if line.isOverlong, reading.format == .jsonDocument {
      return .failure(
        LineError(
          localized(
            "the document is longer than the limit of {mebibytes} MiB ({bytes} bytes); send a shorter one",
            [
              "mebibytes": String(InputDocument.maxBytes >> 20), "bytes": String(InputDocument.maxBytes),
            ])))
    }
    if line.isOverlong {
      return .failure(
        LineError(
          localized(
            "it is longer than the limit of {mebibytes} MiB ({bytes} bytes); split it into shorter lines",
            ["mebibytes": String(InputLines.maxLineBytes >> 20), "bytes": String(InputLines.maxLineBytes)])))
    }
    var announcement = defaults
    var whole: String?
    // The text is made speakable once, by the delivery loop's item.
    switch reading.format {
    case .lines:
      (announcement.text, whole) = defaults.isSSML ? (line.text, nil) : reading.said(line.text, source: nil)
    case .json, .jsonDocument:
      do {
        let decoded = try AnnouncementLine.decode(line.text, reading: reading)
        announcement = decoded.announcement(defaults: defaults)
        // SSML is said as its markup says: never as Markdown, after a source, or shortened.
        if announcement.isSSML {
          announcement.text = decoded.given
        } else {
          whole = decoded.whole
        }
      } catch {
        return .failure(error)
      }
    }
    if announcement.isSSML, let problem = SSMLValidator.check(announcement.text) {
      return .failure(LineError(problem.printedPhrase, english: problem.phrase))
    }
    return .success(Read(announcement: announcement, whole: whole))
  }
}
