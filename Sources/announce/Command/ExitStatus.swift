import AnnouncerCore
import FoundationEssentials
import Glibc

/// The exit codes of the command, from sysexits(3) where one fits, and the one place
/// where a run's result becomes its exit status.
enum ExitStatus {
  /// Every announcement was heard to the end.
  static let success: Int32 = 0
  /// Some announcement was not delivered.
  static let notDelivered: Int32 = 1
  /// The input data was bad, such as invalid SSML (EX_DATAERR).
  static let badInput: Int32 = 65
  /// The speech service or the audio output is unavailable (EX_UNAVAILABLE).
  static let serviceUnavailable: Int32 = 69

  /// A usage error, such as an invalid option or environment value (EX_USAGE).
  static let usage: Int32 = 64

  /// The exit status of a run of `announce` that came to `result`.
  static func of(_ result: RunResult) -> Int32 {
    switch result {
    case .listed, .detached: success
    case .finished(let summary): forSummary(summary)
    case .interrupted(let signal): signal.exitStatus
    case .failed(let failure): failure.status
    }
  }

  /// The status when connecting failed: a malformed `SPEECHD_ADDRESS` is a usage error.
  static func forConnectError(_ error: SpeechdConnectError) -> Int32 {
    if case .invalidAddress = error { return usage }
    return serviceUnavailable
  }

  /// The status for a whole run: service trouble first, then bad input, then undelivered.
  static func forSummary(_ summary: RunSummary) -> Int32 {
    let status = forReasons(summary.failures)
    if status == serviceUnavailable { return status }
    if summary.rejectedLines > 0 { return badInput }
    return status
  }

  /// The status for a run whose undelivered announcements gave up for `reasons`.
  static func forReasons(_ reasons: some Collection<GiveUpReason>) -> Int32 {
    if reasons.isEmpty { return success }
    if reasons.contains(where: \.meansServiceUnavailable) {
      return serviceUnavailable
    }
    return notDelivered
  }
}

/// The signals that end a run cleanly: our speech is cancelled, the outcome of every
/// announcement is reported, and the exit status is 128 plus the signal's number, as
/// shells report a process the signal killed. This is the one list of them; the man
/// page's EXIT STATUS and the README show it, and a test holds them to it.
enum HandledSignal: CaseIterable, Sendable {
  /// SIGHUP: the terminal was closed, or the SSH session dropped.
  case hangUp
  /// SIGINT: Control-C.
  case interrupt
  /// SIGTERM: `kill`, or a service manager stopping the process.
  case terminate

  /// The signal's number.
  var number: Int32 {
    switch self {
    case .hangUp: SIGHUP
    case .interrupt: SIGINT
    case .terminate: SIGTERM
    }
  }

  /// The signal's name, as the man page writes it.
  var name: String {
    switch self {
    case .hangUp: "SIGHUP"
    case .interrupt: "SIGINT"
    case .terminate: "SIGTERM"
    }
  }

  /// The exit status of a run the signal ended: 129, 130 and 143.
  var exitStatus: Int32 { 128 + number }
}
