extension SpeechdConnectError {
  /// libspeechd's reason for a failed connection, in lower case and without its
  /// "Can't connect to …" frame, as ``sentence(forwardingWith:)`` words it: for a caller
  /// that words the rest of that sentence in another language. `nil` for the failures
  /// that carry no reason of libspeechd's.
  package var libspeechdReason: String? {
    switch self {
    case .unreachable(_, let detail), .nothingForwarded(_, _, let detail): Self.reason(in: detail)
    case .invalidAddress, .notAnswering, .notAccepting, .staleForward, .forwardHung, .nameDoesNotResolve,
      .lookupTookTooLong:
      nil
    }
  }

  /// How long a bound is, as ``sentence(forwardingWith:)`` words it: whole seconds, and
  /// the tenths when there are any.
  package static func secondsAndTenths(_ duration: Duration) -> (seconds: Int64, tenths: Int64) {
    let (whole, fraction) = duration.components
    return (whole, fraction / 100_000_000_000_000_000)
  }
}
