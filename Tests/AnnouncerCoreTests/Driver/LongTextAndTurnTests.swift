import Testing

@testable import AnnouncerCore

/// Long texts spoken in parts, and the speaking turn shared with other announcers.
@Suite struct LongTextAndTurnTests {
  typealias Action = AnnouncementStateMachine.Action
  let final = SpeechRequest.finalMarkName

  /// A timing whose parts hold at most 40 characters, so texts stay readable.
  var timing: AnnouncerTiming {
    var timing = AnnouncerTiming()
    timing.longestPart = 40
    return timing
  }

  func submitted(_ actions: [Action]) -> (text: String, serial: Int)? {
    for case .submit(let request, let serial) in actions where request.purpose == .announcement {
      return (request.text, serial)
    }
    return nil
  }

  func probeSerial(_ actions: [Action]) -> Int? {
    for case .submit(let request, let serial) in actions where request.purpose == .quietProbe {
      return serial
    }
    return nil
  }

  // MARK: Speaking in parts

  @Test func partsAreSpokenInOrderKeepingTheTurnFromFirstToLast() throws {
    let text = "The first sentence is here. The second one follows it. And a third."
    var m = AnnouncementStateMachine(Announcement(text), timing: timing)
    #expect(m.partCount == 2)
    #expect(m.start(now: .zero) == [.takeTurn])
    let first = try #require(submitted(m.turnTaken(now: .zero)))
    #expect(first.text == "The first sentence is here.")
    _ = m.submissionAccepted(serial: first.serial, id: 7, now: .zero)
    _ = m.handle(.began(7), now: .milliseconds(10))
    _ = m.handle(.indexMark(7, name: final), now: .seconds(2))
    // The first part is heard: the next one follows at once, and the turn is kept, so
    // that the text is not sent to the back of the line after each part (issue #16).
    let afterFirst = m.handle(.ended(7), now: .seconds(3))
    #expect(!afterFirst.contains(.releaseTurn) && !afterFirst.contains(.takeTurn))
    #expect(m.outcome == nil)
    let second = try #require(submitted(afterFirst))
    #expect(second.text == "The second one follows it. And a third.")
    #expect(m.partNumber == 2)
    _ = m.submissionAccepted(serial: second.serial, id: 8, now: .seconds(3))
    _ = m.handle(.began(8), now: .seconds(3))
    _ = m.handle(.indexMark(8, name: final), now: .seconds(5))
    #expect(
      m.handle(.ended(8), now: .seconds(5))
        == [.releaseTurn, .finish(.spoken(attempts: 2, duration: .seconds(5)))])
  }

  @Test func anInterruptionRepeatsOnlyThePartItCutOffWithinThatPartsWindow() throws {
    let text = "The first sentence is here. The second one follows it. And a third."
    var m = AnnouncementStateMachine(
      Announcement(text, retryTimeout: .seconds(3)), timing: timing)
    _ = m.start(now: .zero)
    let first = try #require(submitted(m.turnTaken(now: .zero)))
    _ = m.submissionAccepted(serial: first.serial, id: 7, now: .zero)
    let second = try #require(submitted(m.handle(.ended(7), now: .seconds(10))))
    _ = m.submissionAccepted(serial: second.serial, id: 8, now: .seconds(10))
    _ = m.handle(.began(8), now: .seconds(10))
    // Ten seconds after the first attempt, yet within the second part's own window.
    let interrupted = m.handle(.cancelled(8), now: .seconds(11))
    #expect(interrupted.contains(.report(.waitingForQuiet)))
    let probe = try #require(probeSerial(interrupted))
    _ = m.submissionAccepted(serial: probe, id: 9, now: .seconds(11))
    #expect(m.handle(.ended(9), now: .seconds(11)) == [])
    // Still quiet once the settle window has passed.
    let settled = Duration.seconds(11) + timing.settleWindow
    let secondProbe = try #require(probeSerial(m.tick(now: settled)))
    _ = m.submissionAccepted(serial: secondProbe, id: 10, now: settled)
    let retry = try #require(submitted(m.handle(.ended(10), now: settled)))
    #expect(retry.text == second.text)
    #expect(m.attemptsOfPart == 2)
  }

  /// A part whose END never comes after its final mark is heard, its speech cancelled,
  /// and the next part goes out at once.
  @Test func aPartWhoseEndNeverComesAfterItsFinalMarkIsHeardAndTheNextOneFollows() throws {
    let text = "The first sentence is here. The second one follows it. And a third."
    var m = AnnouncementStateMachine(
      Announcement(text, retryTimeout: .seconds(3)), timing: timing)
    _ = m.start(now: .zero)
    let first = try #require(submitted(m.turnTaken(now: .zero)))
    _ = m.submissionAccepted(serial: first.serial, id: 7, now: .zero)
    _ = m.handle(.began(7), now: .zero)
    _ = m.handle(.indexMark(7, name: final), now: .milliseconds(900))
    let endDue = .milliseconds(900) + timing.endAfterFinalMarkBound
    // The progress check at 1.9 s finds the channel busy: the message is held, not lost.
    let check = try #require(probeSerial(m.tick(now: .milliseconds(1900))))
    _ = m.submissionAccepted(serial: check, id: 8, now: .milliseconds(1900))
    #expect(m.handle(.cancelled(8), now: .milliseconds(1901)) == [])
    let actions = m.tick(now: endDue)
    #expect(actions.first == .cancelSpeech)
    #expect(actions.dropFirst().first == .report(.attempt))
    let second = try #require(submitted(actions))
    #expect(second.text != first.text)
    #expect(m.outcome == nil)
  }

  @Test func ssmlIsNeverSplit() {
    let ssml = "<speak>" + String(repeating: "word ", count: 100) + "</speak>"
    let m = AnnouncementStateMachine(Announcement(ssml, isSSML: true), timing: timing)
    #expect(m.partCount == 1)
  }

  // MARK: The turn

  @Test func nothingIsSentUntilTheTurnIsTaken() {
    var m = AnnouncementStateMachine(Announcement("Saved"), timing: timing)
    #expect(m.start(now: .zero) == [.takeTurn])
    #expect(m.turnBusy(now: .zero) == [.report(.waitingForTurn)])
    #expect(m.deadline == nil)
    #expect(m.tick(now: .seconds(3600)) == [])
    // Waiting for the turn does not use up the retry window.
    let actions = m.turnTaken(now: .seconds(3600))
    #expect(submitted(actions)?.text == "Saved")
    // Until speech-dispatcher takes the message, it is waited for until the window, which
    // opened just now, closes.
    #expect(m.deadline == .seconds(3600) + Announcement.defaultRetryTimeout)
  }

  @Test func cancellingWhileWaitingForTheTurnGivesItBackAndSendsNothing() {
    var m = AnnouncementStateMachine(Announcement("Saved"), timing: timing)
    _ = m.start(now: .zero)
    #expect(m.cancel(now: .seconds(1)) == [.releaseTurn, .finish(.gaveUp(.cancelled))])
    #expect(m.deadline == nil)
  }

  // The driver grants only a turn that was asked for and not given back: anything else
  // is a bug of its own, and stops the program instead of going on in a state nobody
  // can reason about.

  // Exit tests came with Swift 6.2's Testing; Debian 13's Swift 6.0.3 has them only as
  // experimental SPI, so they run on newer toolchains and are left out there.
  #if compiler(>=6.2)
    /// An announcement that has asked for the turn, for the exit tests (which capture nothing).
    static func waitingForTheTurn() -> AnnouncementStateMachine {
      var m = AnnouncementStateMachine(Announcement("Saved"), timing: AnnouncerTiming())
      _ = m.start(now: .zero)
      return m
    }

    @Test func aTurnGrantedTwiceStopsTheProgram() async {
      await #expect(processExitsWith: .failure) {
        var m = LongTextAndTurnTests.waitingForTheTurn()
        _ = m.turnTaken(now: .zero)
        _ = m.turnTaken(now: .zero)
      }
    }

    @Test func aTurnGrantedAfterItWasGivenBackStopsTheProgram() async {
      await #expect(processExitsWith: .failure) {
        var m = LongTextAndTurnTests.waitingForTheTurn()
        _ = m.cancel(now: .seconds(1))
        _ = m.turnTaken(now: .seconds(2))
      }
    }

    @Test func aBusyTurnThatWasNotAskedForStopsTheProgram() async {
      await #expect(processExitsWith: .failure) {
        var m = LongTextAndTurnTests.waitingForTheTurn()
        _ = m.turnTaken(now: .zero)
        _ = m.turnBusy(now: .zero)
      }
    }

    @Test func aTurnGrantedToAnAnnouncementNotInFlightStopsTheProgram() async {
      await #expect(processExitsWith: .failure) {
        var queue = AnnouncementQueue()
        _ = queue.enqueue(Announcement("Saved"), id: AnnouncementID(1), now: .zero)
        _ = queue.turnTaken(AnnouncementID(2), now: .zero)
      }
    }
  #endif

  @Test func theDelayComesBeforeTheTurn() {
    var m = AnnouncementStateMachine(Announcement("Saved", delay: .seconds(2)), timing: timing)
    #expect(m.start(now: .zero) == [])
    #expect(m.tick(now: .seconds(2)) == [.takeTurn])
  }
}
