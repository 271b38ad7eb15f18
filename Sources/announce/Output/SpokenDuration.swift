/// A duration as people say it: "1 minute 5 seconds", "1 hour 2 minutes".
enum SpokenDuration {
  /// At most two units, the smaller one left out when it is zero; under an hour to the
  /// second, under a day to the minute, beyond that to the hour.
  static func text(seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0.5 else { return "less than a second" }
    let total = Int(seconds.rounded())
    if total < 60 { return count(total, "second") }
    if total < 3600 { return pair(total / 60, "minute", total % 60, "second") }
    let minutes = Int((seconds / 60).rounded())
    if minutes < 24 * 60 { return pair(minutes / 60, "hour", minutes % 60, "minute") }
    let hours = Int((seconds / 3600).rounded())
    return pair(hours / 24, "day", hours % 24, "hour")
  }

  private static func pair(
    _ large: Int, _ largeUnit: String, _ small: Int, _ smallUnit: String
  )
    -> String
  {
    small == 0 ? count(large, largeUnit) : count(large, largeUnit) + " " + count(small, smallUnit)
  }

  private static func count(_ value: Int, _ unit: String) -> String {
    "\(value) \(unit)\(value == 1 ? "" : "s")"
  }
}
