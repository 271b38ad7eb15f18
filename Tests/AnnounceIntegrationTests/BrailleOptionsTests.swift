import AnnouncerCore
import ArgumentParser
import Testing

@testable import announce

/// The braille options and the delivery rule, parsed in-process: no display needed.
@Suite struct BrailleOptionsTests {
  @Test func aFlagWinsOverTheVariableAndTheVariableOverTheDefault() throws {
    let only = ["ANNOUNCE_BRAILLE": "only"]
    #expect(try BrailleOptions.parse([]).mode(environment: [:]) == .off)
    #expect(try BrailleOptions.parse([]).mode(environment: only) == .only)
    #expect(try BrailleOptions.parse([]).mode(environment: ["ANNOUNCE_BRAILLE": "ON"]) == .on)
    #expect(try BrailleOptions.parse(["--braille"]).mode(environment: only) == .on)
    #expect(try BrailleOptions.parse(["--braille-only"]).mode(environment: [:]) == .only)
  }

  @Test func aVariableThatIsNotOnOnlyOrOffIsAUsageError() {
    #expect(throws: ValidationError.self) {
      try BrailleOptions.parse([]).mode(environment: ["ANNOUNCE_BRAILLE": "yes"])
    }
  }

  @Test(arguments: [
    ["--braille", "--braille-only"], ["--braille-pace", "5"], ["--braille-pace", "2000"],
    ["--braille-flash", "-1"], ["--braille-flash", "nan"],
  ])
  func outOfRangeOrConflictingOptionsAreRejected(arguments: [String]) {
    #expect(throws: (any Error).self) { try BrailleOptions.parse(arguments) }
  }

  @Test func paceAndFlashTimeReachTheTiming() throws {
    let timing = try BrailleOptions.parse(["--braille-pace", "60", "--braille-flash", "4"]).timing
    #expect(timing.wordsPerMinute == 60)
    #expect(timing.minimumFlash == .seconds(4))
    #expect(try BrailleOptions.parse([]).timing == BrailleTiming())
  }

  @Test func deliveredMeansHeardWithSpeechAndShownOrAcknowledgedWithBrailleOnly() {
    let heard = Outcome.spoken(attempts: 1, duration: .seconds(1))
    let interrupted = Outcome.gaveUp(.interruptedOutOfTime)
    let lost = BrailleOutcome.notShown(.displayLost)
    let read = BrailleOutcome.acknowledged(after: .seconds(1))
    let withSpeech = DeliveryPlan(braille: .on)
    let alone = DeliveryPlan(braille: .only)
    #expect(withSpeech.failure(of: .speech(heard)) == nil && withSpeech.failure(of: .braille(lost)) == nil)
    #expect(withSpeech.failure(of: .speech(interrupted)) == .speech(.interruptedOutOfTime))
    #expect(alone.failure(of: .braille(read)) == nil)
    #expect(alone.failure(of: .braille(.shown(duration: .seconds(5)))) == nil)
    #expect(alone.failure(of: .braille(.notShown(.outOfTime))) == .braille(.outOfTime))
    #expect(alone.failure(of: .speech(interrupted)) == nil)
    #expect(alone.failure(of: .braille(lost))?.meansServiceUnavailable == true)
    #expect(withSpeech.failure(of: .braille(lost)) == nil)
    #expect(alone.failure(of: .braille(.notShown(.cancelled)))?.meansServiceUnavailable == false)
  }
}
