import AnnouncerCore

/// What "delivered" means for one announcement in each mode: the one rule that the
/// failures of a run, and so ``ExitStatus/of(_:)``, follow.
///
/// - Speech alone, and speech with braille: heard to the end. The braille is extra; a
///   display that is missing or lost never makes an announcement undelivered.
/// - Braille alone: shown for its whole time, or acknowledged with a key.
///
/// A channel that is not required still reports its outcome (to `--json`, `--verbose`
/// and the history); it only does not count for the exit status.
struct DeliveryRule: Sendable, Equatable {
  /// The channels that must each deliver an announcement for it to count as delivered.
  let required: Set<Channel>

  /// The rule of a run in `mode`.
  init(mode: BrailleMode) {
    switch mode {
    case .off, .on: required = [.speech]
    case .only: required = [.braille]
    }
  }

  /// The failure that `outcome` counts as: `nil` when it delivered, or when its channel
  /// is not required in this mode.
  func failure(of outcome: ChannelOutcome) -> ChannelFailure? {
    guard required.contains(outcome.channel) else { return nil }
    return outcome.failure
  }

  /// Whether an announcement whose channels came to `outcomes` was delivered: every
  /// required channel has an outcome, and none of them failed.
  func delivered(_ outcomes: [ChannelOutcome]) -> Bool {
    required.allSatisfy { channel in
      let own = outcomes.filter { $0.channel == channel }
      return !own.isEmpty && own.allSatisfy { $0.failure == nil }
    }
  }
}
