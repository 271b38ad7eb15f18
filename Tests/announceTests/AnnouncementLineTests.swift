import AnnouncerCore
import Testing

@testable import announce

/// `--input json` lines: what is rejected, and what a good line overrides.
@Suite struct AnnouncementLineTests {
  @Test(arguments: [
    ("{\"text\":\"x\",\"language\":\"en\\r\\nSET all RATE 100\"}", "\"language\" must be one word"),
    ("{\"text\":\"x\",\"voice\":\"a\\r\\nQUIT\"}", "\"voice\" must be one word"),
    ("{\"text\":\"x\",\"timeout\":1e308}", "\"timeout\" must be from 0 to 86400 seconds"),
    ("{\"text\":\"x\",\"delay\":1e20}", "\"delay\" must be from 0 to 86400 seconds"),
    ("{\"text\":\"x\",\"rate\":1.5}", "the \"rate\" field has a value of the wrong kind"),
    ("{\"text\":\"x\",\"priority\":\"loud\"}", "the \"priority\" field has a value of the wrong kind"),
    ("[1,2]", "it is not a JSON object"),
    ("{\"text\":\"  \"}", "the \"text\" field is empty"),
    ("{\"rate\":1}", "the object has no \"text\" field"),
  ])
  func badLinesAreRejectedWithTheirCause(line: String, cause: String) {
    #expect(throws: LineError.self) { try AnnouncementLine.decode(line) }
    do {
      _ = try AnnouncementLine.decode(line)
    } catch {
      #expect(error.description.contains(cause), "\(error.description)")
    }
  }

  @Test func aGoodLineOverridesOnlyWhatItNames() throws {
    let defaults = Announcement("", priority: .text, retryTimeout: .seconds(3), voice: VoiceOptions(rate: 10))
    let line = try AnnouncementLine.decode(
      "{\"text\":\"Saved\",\"timeout\":0,\"priority\":\"message\",\"delay\":1}")
    let announcement = line.announcement(defaults: defaults)
    #expect(announcement.text == "Saved")
    #expect(announcement.retryTimeout == .zero)
    #expect(announcement.priority == .message)
    #expect(announcement.delay == .seconds(1))
    #expect(announcement.voice.rate == 10)
  }
}
