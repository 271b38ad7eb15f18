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
    #expect(
      report.jsonLine
        == #"{"event":"shown","id":3,"text":"Build failed","time":1.500,"duration":1.000,"acknowledged":"route 3","withSpeech":true}"#
    )
    #expect(report.verboseLine == #"1.50 s: "Build failed": shown on the braille display for 1.00 seconds"#)
    let skipped = FlashReport(
      id: AnnouncementID(4), text: "line 4", outcome: .notShown(.skipped), key: nil, withSpeech: false,
      time: .milliseconds(250))
    #expect(
      skipped.jsonLine == #"{"event":"not-shown","id":4,"text":"line 4","time":0.250,"reason":"skipped"}"#)
  }
}
