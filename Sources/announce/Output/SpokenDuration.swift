/// A duration as people say it: "1 minute 5 seconds", "1 hour 2 minutes".
enum SpokenDuration {
  /// At most two units, the smaller one left out when it is zero; under an hour to the
  /// second, under a day to the minute, beyond that to the hour. In the language of
  /// `wording`; English by default.
  static func text(seconds: Double, in wording: Wording = .english) -> String {
    guard seconds.isFinite, seconds >= 0.5 else { return wording.localized("less than a second") }
    let words = DurationWords(wording: wording)
    let total = Int(seconds.rounded())
    if total < 60 { return words.seconds(total) }
    if total < 3600 { return words.pair(words.minutes(total / 60), total % 60, words.seconds) }
    let minutes = Int((seconds / 60).rounded())
    if minutes < 24 * 60 { return words.pair(words.hours(minutes / 60), minutes % 60, words.minutes) }
    let hours = Int((seconds / 3600).rounded())
    return words.pair(words.days(hours / 24), hours % 24, words.hours)
  }
}
