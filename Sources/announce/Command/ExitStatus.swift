import AnnouncerCore
import Glibc

/// The one place where a run's result becomes the command's exit status, with the codes
/// of sysexits(3) where one fits. Nothing else in the command picks a status.
enum ExitStatus {
  /// Every announcement was heard to the end.
  static let success: Int32 = 0
  /// Some announcement was not delivered.
  private static let notDelivered: Int32 = 1
  /// A usage error, such as an invalid option or environment value (EX_USAGE).
  private static let usage: Int32 = 64
  /// The input data was bad, such as invalid SSML (EX_DATAERR).
  private static let badInput: Int32 = 65
  /// The speech service or the audio output is unavailable (EX_UNAVAILABLE).
  private static let serviceUnavailable: Int32 = 69

  /// The exit status of a run of `announce` that came to `result`.
  static func of(_ result: RunResult) -> Int32 {
    switch result {
    case .listed, .detached, .checked: success
    case .finished(let summary): of(summary)
    // As shells report a process the signal killed: 129, 130, 131 and 143.
    case .interrupted(let signal): 128 + signal.number
    case .failed(.usage): usage
    case .failed(.badInput): badInput
    case .failed(.serviceUnavailable): serviceUnavailable
    case .failed(.notDelivered): notDelivered
    }
  }

  /// The exit status of several runs, as `announce replay` makes one for each
  /// announcement: a signal's, which ends them; else speech-dispatcher's trouble first,
  /// then usage errors, bad input, and not delivered.
  static func of(_ results: [RunResult]) -> Int32 {
    for result in results {
      if case .interrupted = result { return of(result) }
    }
    let statuses = results.map(of)
    let order = [serviceUnavailable, usage, badInput, notDelivered]
    return order.first(where: statuses.contains) ?? success
  }

  /// The status of a finished run: service trouble first (speech-dispatcher, the audio
  /// output, or the braille display, whichever channel the ``DeliveryPlan`` required),
  /// then bad input, then undelivered.
  private static func of(_ summary: RunSummary) -> Int32 {
    let reasons = summary.failures
    if reasons.contains(where: \.meansServiceUnavailable) { return serviceUnavailable }
    if summary.rejectedLines > 0 { return badInput }
    return reasons.isEmpty ? success : notDelivered
  }
}
