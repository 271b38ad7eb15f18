/// Which channels a run delivers on, and which of them must deliver for an announcement
/// to count as delivered: the run's mode, built once, from the command line or, for the
/// shell hooks, tmux alerts, `replay`, `--when-done` and `--detach`, from the environment
/// (``init(braille:environment:)``).
///
/// - Speech alone, and speech with braille: heard to the end. The braille is extra; a
///   display that is missing or lost never makes an announcement undelivered.
/// - Braille alone: shown for its whole time, or acknowledged with a key.
/// - Notifications alone: seen, or still on screen at the end of the wait. Beside speech
///   they are extra, as braille is.
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

  /// The plan the braille and notification options ask for, else `ANNOUNCE_BRAILLE` and
  /// `ANNOUNCE_NOTIFY` in `environment`; without options (a run started with none, such
  /// as a hook's), the variables alone.
  ///
  /// - Throws: the usage error of a variable that is not on, only or off.
  init(braille: BrailleOptions? = nil, notify: NotifyOptions? = nil, environment: [String: String]) throws {
    let brailleMode =
      try braille?.mode(environment: environment) ?? BrailleOptions.mode(environment: environment)
    let notifyMode =
      try notify?.mode(environment: environment) ?? NotifyOptions.mode(environment: environment)
    self.init(braille: brailleMode, notify: notifyMode)
  }

  /// The plan of braille `mode` and notification mode `notify`: speech unless one of
  /// them is `only`; then the channels asked for alone are the ones that must deliver.
  init(braille mode: BrailleMode, notify: NotifyMode = .off) {
    var channels: Set<Channel> = []
    var alone: Set<Channel> = []
    for (channel, on, only) in [
      (Channel.braille, mode != .off, mode == .only), (Channel.notification, notify != .off, notify == .only),
    ] {
      if on { channels.insert(channel) }
      if only { alone.insert(channel) }
    }
    if alone.isEmpty {
      self.init(channels: channels.union([.speech]), required: [.speech])
    } else {
      self.init(channels: channels, required: alone)
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
