import AnnouncerCore
import Testing

@testable import announce

/// A notification's outcome in its own words: its JSON line, its verbose line and its
/// history words, never speech's or braille's.
@Suite struct NotificationReportTests {
  @Test func aSeenNotificationsJSONSaysWhenAndWhichActionAndThatItCameFromTheNotification() {
    let report = NotificationReport(
      id: AnnouncementID(3), text: "Build \"done\"", outcome: .seen(after: .milliseconds(1500)),
      action: "default", time: .seconds(2))
    #expect(
      report.jsonLine
        == #"{"event":"seen","id":3,"text":"Build \"done\"","time":2.000,"after":1.500,"action":"default","via":"notification"}"#
    )
    #expect(report.verboseLine.hasSuffix(#"s: "Build "done"": seen on the desktop"#))
    #expect(report.ending?.outcome?.failure == nil)
  }

  @Test func aRefusedNotificationKeepsTheServersWordsAndCountsAsNotDelivered() {
    let report = NotificationReport(
      id: AnnouncementID(1), text: "Saved", outcome: .failed(reason: "too many"), time: .zero)
    #expect(
      report.jsonLine.contains(#""event":"failed""#)
        && report.jsonLine.contains(#""reason":"failed","error":"too many""#))
    #expect(report.verboseLine.hasSuffix("refused by the notification server (too many)"))
    #expect(report.ending?.outcome?.failure == .notification(.failed))
  }

  static let failures: [(NotificationOutcome, String, String)] = [
    (.expired, "expired", "notification not seen (expired unseen)"),
    (.closed, "closed", "notification not seen (closed before it was seen)"),
    (.noServer, "no-server", "notification not seen (no notification server)"),
    (.skipped, "skipped", "notification not seen (skipped in a flood)"),
  ]

  @Test(arguments: failures)
  func eachFailureHasItsReasonInTheLogAndItsWordsInTheHistory(
    outcome: NotificationOutcome, reason: String, words: String
  ) {
    let report = NotificationReport(id: AnnouncementID(1), text: "Saved", outcome: outcome, time: .zero)
    #expect(report.jsonLine.contains(#""reason":""# + reason + #"""#))
    let failure = NotificationFailure(outcome)
    #expect(failure?.rawValue == reason)
    let said = Channel.notification.notDeliveredWords(onReplay: false).replacingBytes(
      of: "{reason}", with: Channel.notification.reasonInAFewWords(reason) ?? "")
    #expect(said == words)
  }

  @Test func aNotificationNotSeenIsSaidInOneLineButNotOneLeftOutOrWithoutAServer() {
    let expired = NotificationReport(
      id: AnnouncementID(1), text: "Backup done", outcome: .expired, time: .zero)
    #expect(
      expired.notDeliveredLine
        == "Not delivered: \"Backup done\": its desktop notification was not seen: expired unseen.")
    for outcome in [NotificationOutcome.skipped, .noServer, .seen(after: .zero), .shown(duration: .zero)] {
      #expect(
        NotificationReport(id: AnnouncementID(1), text: "x", outcome: outcome, time: .zero).notDeliveredLine
          == nil)
    }
  }

  @Test func onlyTheRequiredChannelsFailureCounts() {
    let outcome = ChannelOutcome.notification(.expired)
    #expect(DeliveryPlan(braille: .off, notify: .only).failure(of: outcome) == .notification(.expired))
    #expect(DeliveryPlan(braille: .off, notify: .on).failure(of: outcome) == nil)
    #expect(ChannelFailure.notification(.noServer).meansServiceUnavailable)
    #expect(!ChannelFailure.notification(.expired).meansServiceUnavailable)
  }
}
