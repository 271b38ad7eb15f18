/// The final outcome of one braille flash. Every flash gets exactly one.
package enum BrailleOutcome: Sendable, Equatable {
  /// Held for its whole time: every window for its reading time, at least the minimum
  /// flash time, and (with speech) until the speech ended; `duration` after it appeared.
  case shown(duration: Duration)
  /// The reader pressed a key that is not for panning: the flash ended then, `after`
  /// it appeared.
  case acknowledged(after: Duration)
  /// It was not shown for its whole time, for `reason`.
  case notShown(BrailleFailure)

  /// Whether the reader had the whole message: shown for its whole time or acknowledged.
  package var wasDelivered: Bool {
    switch self {
    case .shown, .acknowledged: true
    case .notShown: false
    }
  }
}

/// Why a braille flash was not shown for its whole time. The raw values are the
/// `reason` of a `not-shown` event and record.
package enum BrailleFailure: String, Sendable, Equatable, CaseIterable {
  /// No braille display could be reached: brltty is not running, refused us, or has no display.
  case unavailable = "no-display"
  /// brltty took the request but did not answer within ``BrailleTiming/answerBound``:
  /// it is stopped or frozen.
  case notAnswering = "not-answering"
  /// brltty went away, or the connection to it broke, while the flash was shown.
  case displayLost = "display-lost"
  /// Its time limit ran out before every window had been read at the pace.
  case outOfTime = "out-of-time"
  /// The speech it went with failed because the speech service is unavailable, so the
  /// run ends and the display is given back at once.
  case speechFailed = "speech-failed"
  /// Flood control left out the speech it went with, or merged it into an equal one
  /// waiting before it, so it was never shown: a flood is not flashed line by line.
  case skipped
  /// It was cancelled, for example by a signal.
  case cancelled

  /// Whether the braille display itself is unavailable (the command's 69 with `--braille-only`).
  package var meansDisplayUnavailable: Bool {
    switch self {
    case .unavailable, .notAnswering, .displayLost: true
    case .outOfTime, .speechFailed, .skipped, .cancelled: false
    }
  }
}

/// What a key pressed on the braille display means to a flash.
package enum BrailleKey: Sendable, Equatable {
  /// Show the next window (brltty's FWINRT, LNDN and their kin).
  case panForward
  /// Show the previous window (FWINLT, LNUP and their kin).
  case panBack
  /// Show the first window (TOP).
  case first
  /// Show the last window (BOT).
  case last
  /// Any other key, such as a routing key: the reader has read the message.
  /// `name` says which, for logs.
  case other(name: String)
}

/// Something that happened to a braille flash, for logs, tests and the JSON event stream.
package enum BrailleEventKind: Sendable, Equatable {
  /// Another announce process holds the display; this flash waits its turn.
  case waitingForTurn
  /// Window `window` of `windows` (from 1) is on the display; `byReader` when the
  /// reader's own panning key moved it there.
  case shown(window: Int, windows: Int, byReader: Bool)
  /// A key that is not for panning said the message was read.
  case acknowledged(key: String)
  /// The display was given back.
  case released
  /// The flash is over with this outcome.
  case finished(BrailleOutcome)
}
