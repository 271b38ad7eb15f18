import AnnouncerCore
import Foundation
import Synchronization
import Testing

@testable import announce

/// Issue #39 item 10: a signal that arrives between two replayed announcements.
@Suite(.timeLimit(.minutes(1))) struct ReplaySignalTests {
  /// A scripted service that sends a signal when the second announcement's run connects:
  /// after the first run has ended and let go of the signals, before the second takes them.
  final class SignalBetweenRuns: SpeechService {
    let inner = ScriptedService()
    let signals: ScriptedSignals
    private let connections = Mutex(0)

    init(signals: ScriptedSignals) { self.signals = signals }

    func speaker(
      for request: AnnounceRequest, whenTurnsUnavailable: (TurnsUnavailable) -> Void
    ) async throws(SpeechdConnectError) -> (announcer: Announcer, voices: (any VoiceListing)?) {
      let count = connections.withLock {
        $0 += 1
        return $0
      }
      if count == 2 { await signals.send(.terminate) }
      return try await inner.speaker(for: request, whenTurnsUnavailable: whenTurnsUnavailable)
    }
  }

  /// Before, each announcement armed and disarmed its own trap, and between two of them
  /// the signals were ignored: the replay went on and said the rest.
  @Test func aSignalBetweenTwoReplayedAnnouncementsEndsTheReplayAndLeavesTheRestMissed() async throws {
    try await withTemporaryLog { log in
      for index in 1...3 {
        log.append(
          "{\"event\":\"gave-up\",\"text\":\"Missed \(index)\",\"reason\":\"interrupted\",\"key\":\"k\(index)\","
            + "\"priority\":\"text\",\"at\":\"2026-01-01T00:00:0\(index).000Z\",\"pid\":1}")
      }
      let signals = ScriptedSignals()
      let service = SignalBetweenRuns(signals: signals)
      let speaking = service.inner.speakEverything()
      let environment = ["XDG_STATE_HOME": log.path.replacingOccurrences(of: "/announce/log.jsonl", with: "")]
      let replay = try ReplayCommand.parse(["--quiet"])
      let results = await replay.replay(environment: environment, service: service, signals: signals.process)
      await service.inner.backend.close()
      #expect(await speaking.value == ["Missed 1"])
      #expect(results.last == .interrupted(.terminate), "\(results)")
      #expect(ExitStatus.of(results) == 143)
      // Once this replay has ended, the two not said are offered again.
      let left = History(log: log).toReplay(last: false, isRunning: { _ in false }).compactMap(\.key)
      #expect(left == ["k2", "k3"])
    }
  }
}
