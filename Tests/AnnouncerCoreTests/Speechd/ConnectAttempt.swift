import Testing

@testable import AnnouncerCore

/// One connection attempt to a listener that never answers, for tests of the bound it keeps.
///
/// Which bound ended the attempt shows in the error (``SpeechdConnectError/notAccepting(_:within:)``
/// names it; the connect bound around it makes `notAnswering` instead), not in the time it
/// took: in a test process busy with other tests, at a load of 8 to 14 on 2 cores, a 2 s
/// bound took 43 to 47 s to return. An attempt without any bound never returns, so the
/// attempt is waited for only up to ``hangBound``, which no load reaches.
enum ConnectAttempt {
  /// Far past every bound of a connection (at most 5 s); reached only by an attempt that hangs.
  static let hangBound: Duration = .seconds(300)

  /// The error `connect` threw; `nil` when it connected (the connection is closed) or threw
  /// another kind of error. An attempt still going after ``hangBound`` is recorded as an
  /// issue, and is `nil` too.
  static func error(
    sourceLocation: SourceLocation = #_sourceLocation,
    of connect: @escaping @Sendable () async throws -> SpeechdClient
  ) async -> SpeechdConnectError? {
    let ended = await Race.within(hangBound) { () async -> SpeechdConnectError? in
      do {
        try await connect().close()
        return nil
      } catch {
        return error as? SpeechdConnectError
      }
    }
    guard let ended else {
      Issue.record("the connection attempt had not ended after \(hangBound)", sourceLocation: sourceLocation)
      return nil
    }
    return ended
  }
}
