import AnnouncerCore

extension AnnounceRequest {
  /// Whether and how the run shows its announcements on a braille display.
  struct Braille: Sendable, Equatable {
    /// The reading pace and the shortest flash time.
    var timing = BrailleTiming()
    /// With `--braille-only`, the longest a message is held: the announcement's timeout,
    /// only when the user set one (`--timeout` or `ANNOUNCE_TIMEOUT`); `nil` holds it
    /// until it has been read at the pace.
    var limit: Duration?

    /// The flash limit a retry timeout of `timeout` gives: 0 is speech's "no retry" and
    /// never shortens a flash (it made every braille-only flash fail after 20 ms).
    static func limit(forTimeout timeout: Duration?) -> Duration? {
      guard let timeout, timeout > .zero else { return nil }
      return timeout
    }

    init(timing: BrailleTiming = BrailleTiming(), limit: Duration? = nil) {
      self.timing = timing
      self.limit = Self.limit(forTimeout: limit)
    }
  }
}

/// How a run reaches the braille display: brltty through BrlAPI in the command, a
/// scripted display in the tests. Asked only when braille is on, so that libbrlapi is
/// loaded only then.
protocol BrailleService: Sendable {
  /// A flasher for the display, or why there is none, in one sentence naming the BrlAPI host.
  func flasher(
    timing: BrailleTiming, environment: [String: String]
  ) async -> Result<BrailleFlasher, BrailleUnavailable>
}

/// The braille of the command: brltty at the environment's `BRLAPI_HOST`.
struct BrlttyService: BrailleService {
  func flasher(
    timing: BrailleTiming, environment: [String: String]
  ) async -> Result<BrailleFlasher, BrailleUnavailable> {
    await BrailleFlasher.brltty(environment: environment, timing: timing)
  }
}
