/// Which channels a run delivers on, and which of them must deliver for an announcement
/// to count as delivered: the run's mode, built once, from the command line or, for the
/// shell hooks, tmux alerts, `replay`, `--when-done` and `--detach`, from the environment
/// (``init(braille:environment:)``).
///
/// - Speech alone, and speech with braille: heard to the end. The braille is extra; a
///   display that is missing or lost never makes an announcement undelivered.
/// - Braille alone: shown for its whole time, or acknowledged with a key.
///
/// A channel that is not required still reports its outcome (to `--json`, `--verbose`
/// and the history); it only does not count for the exit status.
struct DeliveryPlan: Sendable, Equatable {
  /// The channels the run delivers on.
  let channels: Set<Channel>
  /// The channels that must each deliver an announcement for it to count as delivered.
  let required: Set<Channel>

  /// Speech alone, as announce always did.
  static let speech = DeliveryPlan(channels: [.speech], required: [.speech])

  init(channels: Set<Channel>, required: Set<Channel>) {
    self.channels = channels
    self.required = required
  }

  /// The plan `--braille` or `--braille-only` asks for, else `ANNOUNCE_BRAILLE` in
  /// `environment`; without `braille` (a run started with no options), the variable alone.
  ///
  /// - Throws: the usage error of a variable that is not on, only or off.
  init(braille: BrailleOptions? = nil, environment: [String: String]) throws {
    if let braille {
      self.init(braille: try braille.mode(environment: environment))
    } else {
      self.init(braille: try BrailleOptions.mode(environment: environment))
    }
  }

  /// The plan of braille `mode`.
  init(braille mode: BrailleMode) {
    switch mode {
    case .off: self = .speech
    case .on: self.init(channels: [.speech, .braille], required: [.speech])
    case .only: self.init(channels: [.braille], required: [.braille])
    }
  }

  /// Whether the run delivers on `channel`.
  func uses(_ channel: Channel) -> Bool { channels.contains(channel) }

  /// Whether `channel` must deliver for an announcement to count as delivered.
  func requires(_ channel: Channel) -> Bool { required.contains(channel) }

  /// The failure that `outcome` counts as: `nil` when it delivered, or when its channel
  /// is not required.
  func failure(of outcome: ChannelOutcome) -> ChannelFailure? {
    guard requires(outcome.channel) else { return nil }
    return outcome.failure
  }
}
