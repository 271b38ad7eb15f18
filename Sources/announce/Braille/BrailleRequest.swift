import AnnouncerCore

extension AnnounceRequest {
  /// Whether and how the run shows its announcements on a braille display.
  struct Braille: Sendable, Equatable {
    /// The reading pace and the shortest flash time.
    var timing = BrailleTiming()
  }

  /// With braille alone, the longest a message is held: the announcements' timeout, only
  /// when one was chosen (`--timeout`, `ANNOUNCE_TIMEOUT`, or a hook's 30 seconds); `nil`
  /// holds it until it has been read at the pace. A timeout of 0 is speech's "no retry"
  /// and never shortens a flash (it made every braille-only flash fail after 20 ms).
  var flashLimit: Duration? {
    guard let timeout = defaults.chosenRetryTimeout, timeout > .zero else { return nil }
    return timeout
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
