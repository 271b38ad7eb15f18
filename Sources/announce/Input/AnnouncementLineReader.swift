import AnnouncerCore

/// What an input line becomes: the run's announcement with the line's text, or with a
/// JSON line's text and options (`--input json`); SSML is checked here.
enum AnnouncementLineReader {
  /// The announcement of `line` read as `format`, starting from `defaults`, or why it
  /// is rejected.
  static func announcement(
    for line: InputLines.Line, format: InputOptions.Format, defaults: Announcement
  ) -> Result<Announcement, LineError> {
    if line.isOverlong {
      return .failure(
        LineError(
          localized(
            "it is longer than the limit of {mebibytes} MiB ({bytes} bytes); split it into shorter lines",
            ["mebibytes": String(InputLines.maxLineBytes >> 20), "bytes": String(InputLines.maxLineBytes)])))
    }
    var announcement = defaults
    // The text is made speakable once, by the delivery loop's item.
    switch format {
    case .lines:
      announcement.text = line.text
    case .json:
      do {
        announcement = try AnnouncementLine.decode(line.text).announcement(defaults: defaults)
      } catch {
        return .failure(error)
      }
    }
    if announcement.isSSML, let problem = SSMLValidator.check(announcement.text) {
      return .failure(LineError(problem.printedPhrase, english: problem.phrase))
    }
    return .success(announcement)
  }
}
