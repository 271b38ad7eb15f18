import AnnouncerCore
import Testing

@testable import announce

/// A channel's reports word themselves for each sink: their `--json` and `--verbose`
/// lines are the bytes the sinks' own braille methods wrote before.
@Suite struct ChannelReportTests {
  @Test func aKeyThatAcknowledgesIsWordedAsBefore() {
    let report = BrailleAcknowledgement(
      id: AnnouncementID(3), text: "Build failed", key: "route 3", time: .milliseconds(1_500))
    #expect(
      report.jsonLine
        == #"{"event":"acknowledged","id":3,"text":"Build failed","key":"route 3","time":1.500}"#)
    #expect(report.verboseLine == #"1.50 s: "Build failed": read on the braille display (route 3 pressed)"#)
  }

  @Test func aFlashsOutcomeIsWordedAsBefore() {
    let report = FlashReport(
      id: AnnouncementID(3), text: "Build failed", outcome: .acknowledged(after: .seconds(1)), key: "route 3",
      withSpeech: true, time: .milliseconds(1_500))
    #expect(report.jsonLine == EventJSON.line(for: report))
    #expect(report.verboseLine == EventDescription.line(for: report))
  }
}
