import AnnouncerCore

extension BrailleFailure {
  /// The failure in a few words, for `--verbose` and `announce history`: braille's own,
  /// never speech-dispatcher's, in the language of the locale. The log and the JSON
  /// events name it by its raw value.
  var inAFewWords: String {
    switch self {
    case .unavailable: localized("no braille display")
    case .notAnswering: localized("braille display not answering")
    case .displayLost: localized("braille display went away")
    case .outOfTime: localized("out of time at the braille pace")
    case .speechFailed: localized("its speech failed")
    case .skipped: localized("skipped in a flood")
    case .cancelled: localized("cancelled")
    }
  }
}
