import AnnouncerCore
import Testing

@testable import announce

/// doctor's braille check, with a scripted probe: no brltty needed.
@Suite struct BrailleCheckTests {
  static let missing = BrailleUnavailable.noDisplay(address: "BrlAPI host :9")

  @Test func aDisplayThatAnswersIsFineWithItsCells() async {
    let line = await BrailleCheck(plan: DeliveryPlan(braille: .on)) {
      .success((address: "BrlAPI host :9", cells: 40))
    }.run()
    #expect(line.finding == .fine)
    #expect(line.sentence.contains("40 cells") && line.sentence.contains("BrlAPI host :9"))
    #expect(line.facts.contains { $0.0 == "cells" && $0.1 == .number(40) })
  }

  @Test func noDisplayWithBrailleOnlyMeansUndeliverableAndWithSpeechSomethingElse() async {
    let only = await BrailleCheck(plan: DeliveryPlan(braille: .only)) { .failure(Self.missing) }.run()
    #expect(only.finding == .speechUnavailable)
    #expect(ExitStatus.of(DoctorOutcome.of([only.finding]).result) == 69)
    let on = await BrailleCheck(plan: DeliveryPlan(braille: .on)) { .failure(Self.missing) }.run()
    #expect(on.finding == .somethingElseBroken)
    #expect(on.sentence == Self.missing.message)
  }

  @Test func theCheckIsMadeOnlyWhenBrailleIsAskedFor() {
    #expect(BrailleCheck.plan(environment: [:]) == .speech)
    #expect(BrailleCheck.plan(environment: ["ANNOUNCE_BRAILLE": "off"]) == .speech)
    #expect(BrailleCheck.plan(environment: ["ANNOUNCE_BRAILLE": "only"]) == DeliveryPlan(braille: .only))
  }
}
