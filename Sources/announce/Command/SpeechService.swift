import AnnouncerCore

/// How a run reaches the speech service: speech-dispatcher in the command
/// (``SpeechdService``), a scripted backend in the tests.
protocol SpeechService: Sendable {
  /// An announcer that speaks for `request`, with the lists that check the names of its
  /// voices (`nil` when nothing can be checked).
  ///
  /// - Parameter whenTurnsUnavailable: called once when turns with the user's other
  ///   announcers cannot be taken.
  func speaker(
    for request: AnnounceRequest, whenTurnsUnavailable: (TurnsUnavailable) -> Void
  ) async throws(SpeechdConnectError) -> (announcer: Announcer, voices: (any VoiceListing)?)
}

/// The speech service of the command: speech-dispatcher, with turns taken with the
/// user's other announcers.
struct SpeechdService: SpeechService {
  func speaker(
    for request: AnnounceRequest, whenTurnsUnavailable: (TurnsUnavailable) -> Void
  ) async throws(SpeechdConnectError) -> (announcer: Announcer, voices: (any VoiceListing)?) {
    let speechd = try await SpeechdSpeaker.connect(
      address: request.connection.address, appName: request.connection.appName,
      maxWaiting: request.maxQueue,
      environment: request.connection.environment, whenTurnsUnavailable: whenTurnsUnavailable,
      summaryWording: SpokenLanguage(for: request).floodSummary)
    return (speechd.announcer, speechd.lists)
  }
}
