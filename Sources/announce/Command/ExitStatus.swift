import AnnouncerCore
import FoundationEssentials
import Glibc

/// The exit codes of the command, from sysexits(3) where one fits.
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

  /// The status when connecting failed: a malformed `SPEECHD_ADDRESS` is a usage error.
  static func forConnectError(_ error: SpeechdConnectError) -> Int32 {
    if case .invalidAddress = error { return usage }
    return serviceUnavailable
  }

  /// 128 plus the signal number, as shells report it: 130 for SIGINT, 143 for SIGTERM.
  static func interrupted(by signalNumber: Int32) -> Int32 { 128 + signalNumber }

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
