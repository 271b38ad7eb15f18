import AnnouncerCore

extension BrailleFailure {
  /// The failure in a few words, for `--verbose` and `announce history`: braille's own,
  /// never speech-dispatcher's. Like speech's reasons, they are the log's names in words,
  /// in English.
  var inAFewWords: String {
    switch self {
    case .unavailable: "no braille display"
    case .notAnswering: "braille display not answering"
    case .displayLost: "braille display went away"
    case .outOfTime: "out of time at the braille pace"
    case .speechFailed: "its speech failed"
    case .skipped: "skipped in a flood"
    case .cancelled: "cancelled"
    }
  }
}
