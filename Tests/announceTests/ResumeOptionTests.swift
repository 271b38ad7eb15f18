import AnnouncerCore
import Testing

@testable import announce

/// How the command asks for resuming or restarting, and how it reports where a retry resumed.
@Suite struct ResumeOptionTests {
  @Test func retriesResumeByDefaultAndRestartAsksForTheWholeText() throws {
    #expect(try Announce.parse(["Saved"]).request(environment: [:]).defaults.resume)
    #expect(try !Announce.parse(["--restart", "Saved"]).request(environment: [:]).defaults.resume)
  }

  @Test func aJSONLineCanTurnResumingOffOrOn() throws {
    let defaults = Announcement("")
    let off = try AnnouncementLine.decode("{\"text\":\"One. Two.\",\"resume\":false}")
    #expect(!off.announcement(defaults: defaults).resume)
    let on = try AnnouncementLine.decode("{\"text\":\"One. Two.\",\"resume\":true}")
    var restarting = defaults
    restarting.resume = false
    #expect(on.announcement(defaults: restarting).resume)
    #expect(throws: LineError.self) { try AnnouncementLine.decode("{\"text\":\"x\",\"resume\":\"no\"}") }
  }

  @Test func aResumedAttemptSaysWhereInBothStreams() {
    var event = AnnouncerEvent(
      announcement: AnnouncementID(1), text: "One. Två. Three.", attempt: 2, time: .seconds(1),
      kind: .attempt)
    event.resumeAt = 5
    #expect(
      EventJSON.line(for: event)
        == "{\"event\":\"attempt\",\"id\":1,\"text\":\"One. Två. Three.\",\"attempt\":2,\"time\":1.000,\"resumeAt\":5}"
    )
    #expect(EventDescription.line(for: event).hasSuffix("attempt 2, resuming at \"Två. Three.\""))
    event.resumeAt = nil
    #expect(!EventJSON.line(for: event).contains("resumeAt"))
  }
}
