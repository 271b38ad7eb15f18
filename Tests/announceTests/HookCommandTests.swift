import AnnouncerCore
import Testing

@testable import announce

/// The command that `announce hook-finished` runs to speak its sentence.
@Suite struct HookCommandTests {
  func command(
    _ sentence: String, soundIcon: String? = nil, environment: [String: String] = [:]
  ) throws -> Announce {
    try Announce.$environment.withValue(environment) {
      try Announce.speaking(sentence, soundIcon: soundIcon)
    }
  }

  @Test func itSpeaksTheSentenceInTheBackgroundWithTheHooksTimeout() throws {
    let hook = try command("-v finished", soundIcon: "prompt")
    #expect(hook.texts == ["-v finished"])
    #expect(hook.detach.isChild && !hook.detach.requested)
    let announcement = hook.announcement(text: "-v finished")
    #expect(announcement.retryTimeout == .seconds(HookSpeech.defaultTimeout))
    #expect(announcement.soundIcon == "prompt")
  }

  @Test func theEnvironmentSetsEverythingElseAndItsTimeoutWins() throws {
    let hook = try command(
      "make finished",
      environment: ["ANNOUNCE_TIMEOUT": "5", "ANNOUNCE_RATE": "40", "ANNOUNCE_PRIORITY": "MESSAGE"])
    let announcement = hook.announcement(text: "make finished")
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
