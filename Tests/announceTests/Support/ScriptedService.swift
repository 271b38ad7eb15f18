import AnnouncerCore
import AnnouncerTesting
import Synchronization

@testable import announce

/// A speech service whose announcers speak through one ``ScriptedBackend`` on a
/// ``ManualClock``, for runs without a daemon. It counts the connections asked for.
final class ScriptedService: SpeechService {
  let backend = ScriptedBackend()
  let clock = ManualClock()
  private let connections = Mutex(0)

  /// How many times a run asked for an announcer.
  var connectionCount: Int { connections.withLock { $0 } }

  func speaker(
    for request: AnnounceRequest, whenTurnsUnavailable: (TurnsUnavailable) -> Void
  ) async throws(SpeechdConnectError) -> (announcer: Announcer, voices: (any VoiceListing)?) {
    connections.withLock { $0 += 1 }
    // As SpeechdService: the announcer's own default timeout, since every announcement
    // carries the timeout the request chose.
    let announcer = Announcer(backend: backend, clock: clock, maxWaiting: request.maxQueue)
    return (announcer, nil)
  }

  /// Speaks every announcement to the end as it is said, as a daemon with working audio
  /// does; returns the texts it spoke once the backend is closed.
  func speakEverything() -> Task<[String], Never> {
    let backend = self.backend
    return Task {
      var spoken: [String] = []
      for await said in backend.said where said.request.purpose == .announcement {
        spoken.append(said.request.text)
        backend.emit(.began(said.id))
        backend.emit(.indexMark(said.id, name: SpeechRequest.finalMarkName))
        backend.emit(.ended(said.id))
      }
      return spoken
    }
  }
}

/// A speech service that cannot be reached.
struct UnreachableService: SpeechService {
  let error: SpeechdConnectError

  func speaker(
    for request: AnnounceRequest, whenTurnsUnavailable: (TurnsUnavailable) -> Void
  ) async throws(SpeechdConnectError) -> (announcer: Announcer, voices: (any VoiceListing)?) {
    throw error
  }
}
