import Synchronization
import AnnouncerTesting
import Testing

@testable import AnnouncerCore

/// The flasher driven with a manual clock and a scripted display: no sleeps.
@Suite struct BrailleFlasherTests {
  let timing = BrailleTiming(wordsPerMinute: 100, minimumFlash: .seconds(5))
  let takeAndShow = ["enter", "priority 70"]

  /// A flasher on a scripted display with a manual clock, once `text` is on the display.
  func shownAlone(
    _ text: String
  ) async -> (ManualClock, ScriptedBrailleDisplay, BrailleFlasher, BrailleFlashID) {
    let clock = ManualClock()
    let display = ScriptedBrailleDisplay()
    let flasher = BrailleFlasher(display: display, clock: clock, timing: timing)
    let flash = flasher.show(text, withSpeech: false)
    _ = await display.calls(atLeast: 3)
    return (clock, display, flasher, flash)
  }
  let giveBack = ["priority 0", "write ", "leave"]

  @Test func flashesAreShownOneAfterAnotherInOrderAndTheDisplayIsGivenBackAfterEach() async {
    let clock = ManualClock()
    let display = ScriptedBrailleDisplay()
    let flasher = BrailleFlasher(display: display, clock: clock, timing: timing)
    let first = flasher.show("Build failed", withSpeech: false)
    let second = flasher.show("Tests passed", withSpeech: false)
    #expect(await display.calls(atLeast: 3) == takeAndShow + ["write Build failed"])
    await clock.waitForSleeper(until: .seconds(5))
    clock.advance(by: .seconds(5))
    #expect(await flasher.outcome(of: first) == .shown(duration: .seconds(5)))
    let calls = await display.calls(atLeast: 9)
    // Typed apart: Swift 6.0.3 gives up type-checking the sum inside #expect.
    let both: [String] =
      takeAndShow + ["write Build failed"] + giveBack + takeAndShow + ["write Tests passed"]
    #expect(calls == both)
    await clock.waitForSleeper(until: .seconds(10))
    clock.advance(by: .seconds(5))
    #expect(await flasher.outcome(of: second) == .shown(duration: .seconds(5)))
    await flasher.close()
    #expect(await display.calls(atLeast: 13).suffix(4) == giveBack + ["close"])
  }

  /// A run that follows `tail -f` shows flashes for days: what the flasher keeps of
  /// those ended stays bounded. It kept every outcome, so its memory grew with each line.
  @Test func theEndedFlashesKeptAreBoundedAndADrainWaitsForEveryFlashAskedFor() async {
    let display = ScriptedBrailleDisplay()
    let flasher = BrailleFlasher(display: display, clock: ManualClock(), timing: timing)
    let flashes = (1...200).map { flasher.show("line \($0)", withSpeech: true) }
    _ = await display.calls(atLeast: 3)
    // The speech of all but the first was dropped: those end at once, unshown.
    for flash in flashes.dropFirst() { flasher.othersFinished(flash, release: .leaveOut) }
    let draining = Task { await flasher.drain() }
    #expect(await flasher.keptCount() <= 2 + BrailleFlasher.keptOutcomes)
    flasher.othersFinished(flashes[0], release: .runItsTime)
    display.press(.other(name: "route 1"))
    await draining.value
    #expect(await flasher.keptCount() <= BrailleFlasher.keptOutcomes)
    // The last ones are still told; one that ended long ago is not kept.
    #expect(await flasher.outcome(of: flashes[199]) == .notShown(.skipped))
    #expect(await flasher.outcome(of: flashes[1]) == nil)
    await flasher.close()
  }

  @Test func aRoutingKeyAcknowledgesAndTheNextFlashFollowsAtOnce() async {
    let clock = ManualClock()
    let display = ScriptedBrailleDisplay()
    let flasher = BrailleFlasher(display: display, clock: clock, timing: timing)
    let events = flasher.events()
    let first = flasher.show("Build failed", withSpeech: true)
    flasher.show("Next", withSpeech: false)
    _ = await display.calls(atLeast: 3)
    display.press(.other(name: "route 4"))
    #expect(await flasher.outcome(of: first) == .acknowledged(after: .zero))
    #expect(await display.calls(atLeast: 9).suffix(6) == giveBack + takeAndShow + ["write Next"])
    var kinds: [BrailleEventKind] = []
    for await event in events where event.flash == BrailleFlashID(1) {
      kinds.append(event.kind)
      if case .finished = event.kind { break }
    }
    #expect(kinds.contains(.acknowledged(key: "route 4")))
    await flasher.close()
  }

  @Test func speechThatEndsLateHoldsTheFlashUntilThen() async {
    let clock = ManualClock()
    let display = ScriptedBrailleDisplay()
    let flasher = BrailleFlasher(display: display, clock: clock, timing: timing)
    let flash = flasher.show("Saved", withSpeech: true)
    _ = await display.calls(atLeast: 3)
    clock.advance(by: .seconds(8))
    flasher.othersFinished(flash, release: .runItsTime)
    #expect(await flasher.outcome(of: flash) == .shown(duration: .seconds(8)))
    await flasher.close()
  }

  /// Control-Z: the display is given back in the release order while the flash is kept,
  /// and taken again with the same window when the process continues.
  @Test func suspendingGivesTheDisplayBackAndResumingShowsTheSameWindowAgain() async {
    let (clock, display, flasher, flash) = await shownAlone("Build failed")
    await flasher.suspend()
    #expect(display.calls == takeAndShow + ["write Build failed", "priority 0", "write ", "leave"])
    flasher.resume()
    #expect(
      await display.calls(atLeast: 9).suffix(3) == ["enter", "priority 70", "write Build failed"])
    await clock.waitForSleeper(until: .seconds(5))
    clock.advance(by: .seconds(5))
    #expect(await flasher.outcome(of: flash) == .shown(duration: .seconds(5)))
    await flasher.close()
  }

  @Test func speechThatEndedWhileTheFlashWaitedBehindAnotherDoesNotHoldIt() async {
    let clock = ManualClock()
    let display = ScriptedBrailleDisplay()
    let flasher = BrailleFlasher(display: display, clock: clock, timing: timing)
    flasher.show("Build failed", withSpeech: false)
    let second = flasher.show("Tests passed", withSpeech: true)
    _ = await display.calls(atLeast: 3)
    flasher.othersFinished(second, release: .runItsTime)
    await clock.waitForSleeper(until: .seconds(5))
    clock.advance(by: .seconds(5))
    #expect(await display.calls(atLeast: 9).last == "write Tests passed")
    // Shown from 5 s, so its minimum flash time ends at 10 s; its speech ended long ago.
    await clock.waitForSleeper(until: .seconds(10))
    clock.advance(by: .seconds(5))
    #expect(await flasher.outcome(of: second) == .shown(duration: .seconds(5)))
    await flasher.close()
  }

  @Test func cancellingGivesTheDisplayBackAndEndsEveryFlash() async {
    let clock = ManualClock()
    let display = ScriptedBrailleDisplay()
    let flasher = BrailleFlasher(display: display, clock: clock, timing: timing)
    let first = flasher.show("Build failed", withSpeech: false)
    let second = flasher.show("Waiting", withSpeech: false)
    _ = await display.calls(atLeast: 3)
    await flasher.cancelAll()
    #expect(await display.calls(atLeast: 6).suffix(3) == giveBack)
    #expect(await flasher.outcome(of: first) == .notShown(.cancelled))
    #expect(await flasher.outcome(of: second) == .notShown(.cancelled))
    await flasher.close()
    #expect(await display.calls(atLeast: 7) == takeAndShow + ["write Build failed"] + giveBack + ["close"])
  }

  @Test func aLostDisplayEndsTheFlashWithASentenceNamingTheHost() async {
    let clock = ManualClock()
    let display = ScriptedBrailleDisplay()
    let flasher = BrailleFlasher(display: display, clock: clock, timing: timing)
    let events = flasher.events()
    let flash = flasher.show("Build failed", withSpeech: false)
    _ = await display.calls(atLeast: 3)
    display.lose()
    #expect(await flasher.outcome(of: flash) == .notShown(.displayLost))
    for await event in events {
      guard case .finished = event.kind else { continue }
      #expect(event.problem?.message.contains("BrlAPI host :test") == true)
      break
    }
    await flasher.close()
  }

  @Test func noDisplayMeansUnavailableWithTheDisplaysOwnSentence() async {
    let problem = BrailleUnavailable.noDisplay(address: "BrlAPI host :test")
    let display = ScriptedBrailleDisplay(cells: .failure(problem))
    let flasher = BrailleFlasher(display: display, clock: ManualClock(), timing: timing)
    let events = flasher.events()
    let flash = flasher.show("Build failed", withSpeech: false)
    #expect(await flasher.outcome(of: flash) == .notShown(.unavailable))
    for await event in events {
      guard case .finished = event.kind else { continue }
      #expect(event.problem == problem)
      break
    }
    await flasher.close()
    #expect(await display.calls(atLeast: 2) == ["enter", "close"])
  }
}
