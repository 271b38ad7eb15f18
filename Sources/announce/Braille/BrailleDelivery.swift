import AnnouncerCore

/// What "delivered" means for one announcement in each braille mode: the rule the exit
/// status follows.
///
/// - Speech alone, and speech with braille: heard to the end. The braille is extra; a
///   display that is missing or lost never makes an announcement undelivered.
/// - Braille only: shown for its whole time, or acknowledged with a key.
enum BrailleDelivery {
  /// Whether an announcement counts as delivered in `mode`.
  static func delivered(mode: BrailleMode, speech: Outcome?, braille: BrailleOutcome?) -> Bool {
    switch mode {
    case .off, .on: speech?.wasSpoken ?? false
    case .only: braille?.wasDelivered ?? false
    }
  }

  /// Whether a braille-only announcement failed because the display is unavailable:
  /// the command's 69, as for an unavailable speech service.
  static func meansServiceUnavailable(mode: BrailleMode, braille: BrailleOutcome?) -> Bool {
    guard mode == .only, case .notShown(let failure) = braille else { return false }
    return failure.meansDisplayUnavailable
  }
}
