import AnnouncerCore
import Testing

@testable import announce

/// The command that `announce hook-finished` runs to speak its sentence.
@Suite struct HookRequestTests {
  func command(
    _ sentence: String, soundIcon: String? = nil, environment: [String: String] = [:]
  ) throws -> AnnounceRequest {
    try AnnounceRequest.hook(speaking: sentence, soundIcon: soundIcon, environment: environment)
  }

  @Test func itSpeaksTheSentenceInTheBackgroundWithTheHooksTimeout() throws {
    let hook = try command("-v finished", soundIcon: "prompt")
    #expect(hook.texts == ["-v finished"])
    #expect(hook.outcomes.unattended && hook.work == .speak)
    let announcement = hook.defaults
    #expect(announcement.retryTimeout == .seconds(AnnounceRequest.hookTimeout))
    #expect(announcement.soundIcon == "prompt")
  }

  @Test func theEnvironmentSetsEverythingElseAndItsTimeoutWins() throws {
    let hook = try command(
      "make finished",
      environment: ["ANNOUNCE_TIMEOUT": "5", "ANNOUNCE_RATE": "40", "ANNOUNCE_PRIORITY": "MESSAGE"])
    let announcement = hook.defaults
    #expect(announcement.retryTimeout == .seconds(5))
    #expect(announcement.voice.rate == 40)
    #expect(announcement.priority == .message)
    #expect(announcement.soundIcon == nil)
  }

  @Test func anInvalidVariableIsTheSameUsageErrorAsOnTheCommandLine() {
    do {
      _ = try command("make finished", environment: ["ANNOUNCE_RATE": "fast"])
      Issue.record("ANNOUNCE_RATE=fast was accepted")
    } catch {
      #expect(Announce.exitCode(for: error).rawValue == 64)
      #expect(Announce.message(for: error).hasPrefix("ANNOUNCE_RATE=fast is not"))
    }
  }
}
