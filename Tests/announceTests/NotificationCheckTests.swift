import AnnouncerCore
import Testing

@testable import announce

/// Doctor's notification check with a scripted answer: the server's name and
/// capabilities, and what a missing server means with and without speech.
@Suite struct NotificationCheckTests {
  static let dunst = NotificationServerInformation(
    name: "dunst", vendor: "knopwob", version: "1.9.0", specificationVersion: "1.2",
    capabilities: ["body", "actions", "body-markup"])
  static let missing = NotificationUnavailable.noServer(address: "unix:path=bus", reason: "no owner")
  static let only = DeliveryPlan(braille: .off, notify: .only)
  static let beside = DeliveryPlan(braille: .off, notify: .on)

  @Test func aServerThatAnswersIsNamedWithItsCapabilities() async {
    let line = await NotificationCheck(plan: Self.beside, probe: { .success(Self.dunst) }).run()
    #expect(line.check == "notification" && line.finding == .fine)
    #expect(line.sentence.contains("dunst 1.9.0") && line.sentence.contains("actions, body, body-markup"))
    #expect(
      line.facts.contains { $0.0 == "capabilities" && $0.1 == .texts(["actions", "body", "body-markup"]) })
    #expect(line.facts.contains { $0.0 == "mode" && $0.1 == .text("on") })
  }

  @Test func noServerIsSpeechUnavailableAloneAndSomethingElseBesideSpeech() async {
    let alone = await NotificationCheck(plan: Self.only, probe: { .failure(Self.missing) }).run()
    #expect(alone.finding == .speechUnavailable)
    #expect(alone.sentence == Self.missing.printedMessage)
    #expect(alone.facts.contains { $0.0 == "problem" && $0.1 == .text("no-server") })
    let beside = await NotificationCheck(plan: Self.beside, probe: { .failure(Self.missing) }).run()
    #expect(beside.finding == .somethingElseBroken)
  }
}
