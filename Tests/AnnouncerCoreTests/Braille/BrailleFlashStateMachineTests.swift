import Testing

@testable import AnnouncerCore

/// Every transition of one braille flash, driven by hand: no clock, no threads, no sleeps.
@Suite struct BrailleFlashStateMachineTests {
  typealias Action = BrailleFlashStateMachine.Action
  /// 100 words a minute: 10 cells a second, so a full 20-cell window is held 2 s.
  let timing = BrailleTiming(
    wordsPerMinute: 100, minimumFlash: .seconds(5), shortestWindow: .seconds(1),
    answerBound: .seconds(2))
  let release: [Action] = [.setPriority(.disabled), .write(""), .leaveTtyMode, .report(.released)]

  /// A machine for `text` that has taken the display of `cells` cells at `now`.
  func shown(
    _ text: String, cells: Int = 20, withSpeech: Bool = false, limit: Duration? = nil,
    at now: Duration = .zero
  ) -> (BrailleFlashStateMachine, [Action]) {
    var m = BrailleFlashStateMachine(text, timing: timing, withSpeech: withSpeech, limit: limit)
    #expect(m.start(now: now) == [.takeTurn])
    #expect(m.turnTaken(now: now) == [.enterTtyMode])
    let actions = m.displayReady(cells: cells, now: now)
    return (m, actions)
  }

  // MARK: Taking the display

  @Test func takesTheTurnThenTheDisplayAtFlashPriorityAndWritesTheFirstWindow() {
    let (m, actions) = shown("Build failed")
    #expect(
      actions == [
        .setPriority(.flash), .write("Build failed"),
        .report(.shown(window: 1, windows: 1, byReader: false)),
      ])
    #expect(BrailleFlashStateMachine.Priority.flash.rawValue == 70)
    #expect(m.window?.number == 1)
  }

  @Test func waitsItsTurnWhenAnotherProcessHoldsTheDisplay() {
    var m = BrailleFlashStateMachine("Saved", timing: timing, withSpeech: false)
    #expect(m.start(now: .zero) == [.takeTurn])
    #expect(m.turnBusy(now: .zero) == [.report(.waitingForTurn)])
    #expect(m.deadline == nil)
    #expect(m.turnTaken(now: .seconds(7)) == [.enterTtyMode])
  }

  @Test func noDisplayFinishesAtOnceWithoutGivingBackWhatWasNeverTaken() {
    var m = BrailleFlashStateMachine("Saved", timing: timing, withSpeech: false)
    _ = m.start(now: .zero)
    _ = m.turnTaken(now: .zero)
    #expect(
      m.displayUnavailable(.unavailable, now: .milliseconds(3))
        == [.releaseTurn, .finish(.notShown(.unavailable))])
  }

  @Test func aBrlttyThatDoesNotAnswerIsGivenUpOnAfterTheBound() {
    var m = BrailleFlashStateMachine("Saved", timing: timing, withSpeech: false)
    _ = m.start(now: .zero)
    _ = m.turnTaken(now: .seconds(1))
    #expect(m.deadline == .seconds(3))
    #expect(m.tick(now: .milliseconds(2_999)) == [])
    #expect(m.tick(now: .seconds(3)) == [.releaseTurn, .finish(.notShown(.notAnswering))])
  }

  // MARK: How long it is held

  @Test func aShortMessageIsHeldForTheMinimumFlashTimeThenGivenBackInTheNotesOrder() {
    var (m, _) = shown("Saved")
    // "Saved" reads in 0.5 s, under the shortest window; the minimum flash decides.
    #expect(m.deadline == .seconds(5))
    #expect(m.tick(now: .milliseconds(4_999)) == [])
    #expect(m.tick(now: .seconds(5)) == release + [.releaseTurn, .finish(.shown(duration: .seconds(5)))])
  }

  @Test func withSpeechItIsHeldUntilTheSpeechEndsWhenThatIsLater() {
    var (m, _) = shown("Saved", withSpeech: true)
    #expect(m.deadline == nil)
    #expect(m.tick(now: .seconds(6)) == [])
    #expect(
      m.othersFinished(.runItsTime, now: .seconds(7))
        == release + [.releaseTurn, .finish(.shown(duration: .seconds(7)))])
  }

  @Test func withSpeechThatEndsEarlyTheMinimumFlashTimeStillHolds() {
    var (m, _) = shown("Saved", withSpeech: true)
    #expect(m.othersFinished(.runItsTime, now: .seconds(1)) == [])
    #expect(m.deadline == .seconds(5))
  }

  @Test func speechThatIsOnlyInterruptedLeavesTheFlashToItsTime() {
    var (m, _) = shown("Saved", withSpeech: true)
    #expect(m.othersFinished(.runItsTime, now: .seconds(1)) == [])
    #expect(m.deadline == .seconds(5))
  }

  @Test func speechFailingGivesTheDisplayBackAtOnce() {
    var (m, _) = shown("Saved", withSpeech: true)
    #expect(
      m.othersFinished(.endNow, now: .seconds(1))
        == release + [.releaseTurn, .finish(.notShown(.speechFailed))])
  }

  @Test func speechThatFailedBeforeTheFlashStartedMeansItIsNeverShown() {
    var m = BrailleFlashStateMachine("Saved", timing: timing, withSpeech: true)
    #expect(m.othersFinished(.endNow, now: .zero) == [.finish(.notShown(.speechFailed))])
  }

  /// A flood: flood control dropped (or merged) the speech of a flash still waiting
  /// behind others, so it is never shown; before, every line of the flood was flashed.
  @Test func speechThatFloodControlDroppedIsNeverFlashed() {
    var waiting = BrailleFlashStateMachine("line 7", timing: timing, withSpeech: true)
    #expect(waiting.othersFinished(.leaveOut, now: .zero) == [.finish(.notShown(.skipped))])
    var inLine = BrailleFlashStateMachine("line 8", timing: timing, withSpeech: true)
    _ = inLine.start(now: .zero)
    _ = inLine.turnBusy(now: .zero)
    #expect(
      inLine.othersFinished(.leaveOut, now: .seconds(1)) == [
        .releaseTurn, .finish(.notShown(.skipped)),
      ])
  }

  /// One already on the display stays its time: the reader may be reading it.
  @Test func aShownFlashWhoseSpeechWasDroppedKeepsItsTime() {
    var (m, _) = shown("Saved", withSpeech: true)
    #expect(m.othersFinished(.leaveOut, now: .seconds(1)) == [])
    #expect(m.deadline == .seconds(5))
  }

  /// A huge line is cut to what is read in the longest flash time: it held the display for hours.
  @Test func aHugeTextIsCutToTheLongestFlashTime() {
    var capped = timing
    capped.longestFlash = .seconds(10)
    let text = String(repeating: "word ", count: 100_000)
    var m = BrailleFlashStateMachine(text, timing: capped, withSpeech: false)
    _ = m.start(now: .zero)
    _ = m.turnTaken(now: .zero)
    _ = m.displayReady(cells: 20, now: .zero)
    var now = Duration.zero
    var windows = 1
    while let deadline = m.deadline, m.outcome == nil {
      now = deadline
      windows += m.tick(now: now).filter { if case .write = $0 { true } else { false } }.count
    }
    // 100 words a minute is 10 cells a second: 100 cells in 10 s, five windows of 20 and the mark.
    #expect(m.outcome == .shown(duration: now))
    #expect(now <= .seconds(13), "held \(now)")
    #expect(windows <= 7, "\(windows) windows")
    #expect(capped.cut("short text") == "short text")
    #expect(capped.cut(String(repeating: "x", count: 150)).hasSuffix(" …"))
  }

  // MARK: Panning by time

  @Test func aLongTextIsPannedByTimeAtThePaceAndEveryWordReachesTheDisplay() {
    // Four windows of a 20-cell display: 12, 18, 19 and 12 cells.
    let text = "The build of announce failed in the test stage with three errors"
    var (m, first) = shown(text)
    let windows = BrailleWindows.split(text, cells: 20)
    #expect(windows == ["The build of", "announce failed in", "the test stage with", "three errors"])
    #expect(first.contains(.write("The build of")))
    // 12 cells at 10 cells a second: 1.2 s.
    #expect(m.deadline == .milliseconds(1_200))
    #expect(
      m.tick(now: .milliseconds(1_200))
        == [.write("announce failed in"), .report(.shown(window: 2, windows: 4, byReader: false))])
    #expect(m.deadline == .milliseconds(3_000))
    #expect(m.tick(now: .seconds(3)).first == .write("the test stage with"))
    #expect(m.tick(now: .milliseconds(4_900)).first == .write("three errors"))
    // The last window reads in 1.2 s, but the flash is held its minimum of 5 s.
    #expect(m.deadline == .milliseconds(6_100))
    #expect(m.tick(now: .milliseconds(6_100)).last == .finish(.shown(duration: .milliseconds(6_100))))
  }

  @Test func aSlowerPaceHoldsEachWindowLonger() {
    var slow = timing
    slow.wordsPerMinute = 50
    var m = BrailleFlashStateMachine("twelve cells and more text", timing: slow, withSpeech: false)
    _ = m.start(now: .zero)
    _ = m.turnTaken(now: .zero)
    _ = m.displayReady(cells: 12, now: .zero)
    // "twelve cells" at 5 cells a second: 2.4 s.
    #expect(m.deadline == .milliseconds(2_400))
  }

  // MARK: The reader's keys

  @Test func theReadersPanningKeysMoveForwardAndBackAndRestartTheWindowsTime() {
    var (m, _) = shown("The build of announce failed in the test stage with three errors")
    #expect(
      m.keyPressed(.panForward, now: .milliseconds(500))
        == [.write("announce failed in"), .report(.shown(window: 2, windows: 4, byReader: true))])
    // The window the reader moved to gets its whole reading time, 1.8 s, from then.
    #expect(m.deadline == .milliseconds(2_300))
    #expect(
      m.keyPressed(.panBack, now: .seconds(1))
        == [.write("The build of"), .report(.shown(window: 1, windows: 4, byReader: true))])
    #expect(m.keyPressed(.panBack, now: .seconds(1)).first == .write("The build of"))
    #expect(m.keyPressed(.last, now: .seconds(2)).first == .write("three errors"))
    #expect(m.keyPressed(.first, now: .seconds(2)).first == .write("The build of"))
    #expect(m.outcome == nil)
  }

  @Test func panningForwardFromTheLastWindowMeansRead() {
    var (m, _) = shown("Saved")
    #expect(
      m.keyPressed(.panForward, now: .seconds(2))
        == [.report(.acknowledged(key: "pan-forward"))] + release
        + [.releaseTurn, .finish(.acknowledged(after: .seconds(2)))])
  }

  @Test func aRoutingKeyAcknowledgesAtOnceEvenWhileSpeechGoesOn() {
    var (m, _) = shown("Saved", withSpeech: true, at: .seconds(1))
    #expect(
      m.keyPressed(.other(name: "route 3"), now: .milliseconds(1_700))
        == [.report(.acknowledged(key: "route 3"))] + release
        + [.releaseTurn, .finish(.acknowledged(after: .milliseconds(700)))])
    #expect(m.outcome?.wasDelivered == true)
    // Speech ending afterwards changes nothing.
    #expect(m.othersFinished(.runItsTime, now: .seconds(3)) == [])
  }

  @Test func keysBeforeTheDisplayIsTakenAreNotOurs() {
    var m = BrailleFlashStateMachine("Saved", timing: timing, withSpeech: false)
    _ = m.start(now: .zero)
    #expect(m.keyPressed(.other(name: "route 1"), now: .zero) == [])
    _ = m.turnTaken(now: .zero)
    #expect(m.keyPressed(.panForward, now: .zero) == [])
  }

  // MARK: Limits, loss and cancelling

  @Test func aLimitShorterThanTheReadingTimeEndsItOutOfTime() {
    var (m, _) = shown("The build of announce failed in the test stage", limit: .seconds(2))
    #expect(m.deadline == .milliseconds(1_200))
    _ = m.tick(now: .milliseconds(1_200))
    #expect(m.deadline == .seconds(2))
    #expect(m.tick(now: .seconds(2)) == release + [.releaseTurn, .finish(.notShown(.outOfTime))])
  }

  @Test func aLimitAfterEveryWindowWasReadEndsItAsShown() {
    var (m, _) = shown("Saved", limit: .seconds(3))
    #expect(m.deadline == .seconds(3))
    #expect(m.tick(now: .seconds(3)).last == .finish(.shown(duration: .seconds(3))))
  }

  @Test func brlttyGoingAwayEndsItWithNothingToGiveBack() {
    var (m, _) = shown("Saved", withSpeech: true)
    #expect(m.displayLost(now: .seconds(1)) == [.releaseTurn, .finish(.notShown(.displayLost))])
    #expect(m.deadline == nil)
    #expect(m.tick(now: .seconds(10)) == [])
  }

  @Test func cancellingGivesTheDisplayBackInTheNotesOrder() {
    var (m, _) = shown("Saved")
    let actions = m.cancel(now: .seconds(1))
    #expect(actions == release + [.releaseTurn, .finish(.notShown(.cancelled))])
    // Priority 0 before the empty window, and both before leaving tty mode.
    #expect(actions.firstIndex(of: .setPriority(.disabled))! < actions.firstIndex(of: .write(""))!)
    #expect(actions.firstIndex(of: .write(""))! < actions.firstIndex(of: .leaveTtyMode)!)
    #expect(m.cancel(now: .seconds(2)) == [])
  }

  @Test func cancellingWhileWaitingForTheTurnGivesBackOnlyThePlaceInLine() {
    var m = BrailleFlashStateMachine("Saved", timing: timing, withSpeech: false)
    _ = m.start(now: .zero)
    _ = m.turnBusy(now: .zero)
    #expect(m.cancel(now: .seconds(1)) == [.releaseTurn, .finish(.notShown(.cancelled))])
  }
}

@Suite struct BrailleWindowsTests {
  @Test func windowsBreakAtSpacesAndKeepEveryWord() {
    let text = "Build failed:\n3 errors\tin   main.c"
    let windows = BrailleWindows.split(text, cells: 12)
    #expect(windows == ["Build", "failed: 3", "errors in", "main.c"])
    #expect(windows.joined(separator: " ") == "Build failed: 3 errors in main.c")
    #expect(windows.allSatisfy { $0.unicodeScalars.count <= 12 })
  }

  @Test func aWordLongerThanTheDisplayIsCutAtItsWidth() {
    #expect(
      BrailleWindows.split("see /usr/lib/x86_64-linux-gnu now", cells: 10)
        == ["see", "/usr/lib/x", "86_64-linu", "x-gnu now"])
  }

  @Test func aTextThatFitsIsOneWindowAndAnEmptyOneIsOneEmptyWindow() {
    #expect(BrailleWindows.split("Saved", cells: 40) == ["Saved"])
    #expect(BrailleWindows.split("  \n ", cells: 40) == [""])
  }

  @Test func cellsAreCountedInUnicodeScalarsAsBrlAPICountsThem() {
    // "é" written as e and a combining acute takes two cells.
    let windows = BrailleWindows.split("cafe\u{301} ok", cells: 5)
    #expect(windows == ["cafe\u{301}", "ok"])
  }

  @Test func readingTimeFollowsThePaceWithAShortestWindow() {
    let timing = BrailleTiming(wordsPerMinute: 100)
    #expect(timing.readingTime(cells: 40) == .seconds(4))
    #expect(timing.readingTime(cells: 3) == .seconds(1))
  }
}
