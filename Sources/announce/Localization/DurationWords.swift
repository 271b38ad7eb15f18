/// The units of a ``SpokenDuration`` in one language: "1 minute", "2 minutes", and two
/// of them together.
struct DurationWords {
  var wording: Wording

  func seconds(_ count: Int) -> String {
    filled(wording.localized("{count} second", plural: "{count} seconds", count: count), count)
  }

  func minutes(_ count: Int) -> String {
    filled(wording.localized("{count} minute", plural: "{count} minutes", count: count), count)
  }

  func hours(_ count: Int) -> String {
    filled(wording.localized("{count} hour", plural: "{count} hours", count: count), count)
  }

  func days(_ count: Int) -> String {
    filled(wording.localized("{count} day", plural: "{count} days", count: count), count)
  }

  /// `larger` alone when `small` is zero, else both: "1 hour 2 minutes".
  func pair(_ larger: String, _ small: Int, _ unit: (Int) -> String) -> String {
    guard small != 0 else { return larger }
    // TRANSLATORS: two units of one duration, such as "1 hour" and "2 minutes".
    return wording.localized("{larger} {smaller}")
      .replacingBytes(of: "{larger}", with: larger).replacingBytes(of: "{smaller}", with: unit(small))
  }

  private func filled(_ text: String, _ count: Int) -> String {
    text.replacingBytes(of: "{count}", with: String(count))
  }
}
