import AnnouncerTesting
import Testing

@testable import AnnouncerCore

/// The driver loop with a scripted backend and a manual clock: real tasks, no sleeps.
@Suite(.timeLimit(.minutes(1))) struct AnnouncerDriverTests {
  let final = SpeechRequest.finalMarkName
  let backend = ScriptedBackend()
  let clock = ManualClock()

  func makeAnnouncer(_ timing: AnnouncerTiming = AnnouncerTiming()) -> Announcer {
    Announcer(backend: backend, clock: clock, timing: timing)
  }

  @Test func anAnnouncementHeardToTheEnd() async throws {
    let announcer = makeAnnouncer()
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce("Saved")
    let first = try #require(await said.next())
    #expect(first.request.purpose == .announcement)
    #expect(first.request.text == "Saved")
    clock.advance(by: .milliseconds(800))
    backend.emit(.began(first.id))
    backend.emit(.indexMark(first.id, name: final))
    backend.emit(.ended(first.id))
    #expect(await outcome == .spoken(attempts: 1, duration: .milliseconds(800)))
    await announcer.close()
  }

  @Test func anInterruptionIsRetriedOnlyAfterAQuietProbe() async throws {
    let announcer = makeAnnouncer()
    var said = backend.said.makeAsyncIterator()
    let events = announcer.events()
    async let outcome = announcer.announce("Build failed", retryTimeout: .seconds(5))
    let first = try #require(await said.next())
    backend.emit(.began(first.id))
    backend.emit(.cancelled(first.id))
    let probe = try #require(await said.next())
    #expect(probe.request.purpose == .quietProbe)
    #expect(probe.request.priority == .notification)
    backend.emit(.began(probe.id))
    await backend.emit(.ended(probe.id), handledBy: announcer)
    // Quiet: the driver sleeps through the settle window, on its clock, and asks again.
    let settle = AnnouncerTiming().settleWindow
    await clock.waitForSleeper(until: settle)
    // The timers armed before (for BEGIN, then for progress) were replaced, not left behind.
    #expect(clock.sleeperCount == 1)
    clock.advance(by: settle)
    let settled = try #require(await said.next())
    #expect(settled.request.purpose == .quietProbe)
    backend.emit(.ended(settled.id))
    let retry = try #require(await said.next())
    #expect(retry.request == first.request)
    backend.emit(.began(retry.id))
    backend.emit(.ended(retry.id))
    #expect(await outcome == .spoken(attempts: 2, duration: settle))
    await announcer.close()
    var names: [String] = []
    for await event in events { names.append(event.kind.name) }
    #expect(
      names == [
        "queued", "attempt", "begin", "interrupted", "waiting-for-quiet", "attempt", "begin",
        "spoken",
      ])
  }

  @Test func aBusyChannelUntilTheTimeoutGivesUpAtTheDeadline() async throws {
    var timing = AnnouncerTiming()
    timing.firstProbeInterval = .milliseconds(100)
    timing.longestProbeInterval = .milliseconds(100)
    let announcer = makeAnnouncer(timing)
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce("Saved", retryTimeout: .seconds(1))
    let first = try #require(await said.next())
    await backend.emit(.cancelled(first.id), handledBy: announcer)
    // Probes at 0, 0.25, 0.5 and 0.75 s all find the channel busy; at 1 s the window closes.
    for sentAt in [0, 250, 500, 750].map(Duration.milliseconds) {
      let probe = try #require(await said.next())
      #expect(probe.request.purpose == .quietProbe)
      await backend.emit(.cancelled(probe.id), handledBy: announcer)
      // The next probe is timed once the driver has the probe's id as well as its CANCEL
      // (the two reach it by different paths); advanced before, the clock would be read then.
      await clock.waitForSleeper(until: sentAt + timing.firstProbeInterval)
      clock.advance(by: .milliseconds(250))
    }
    #expect(await outcome == .gaveUp(.interruptedOutOfTime))
    await announcer.close()
  }

  /// The clock is moved only once the driver has armed its timer for what the test waits
  /// for: the driver learns a message's id when `say` returns, by another path than the
  /// events, and a check it learns was taken after the clock moved has its whole bound to
  /// be answered from then.
  @Test func silenceAfterBeginIsAStallAndOurSpeechIsCancelled() async throws {
    // A check not taken is given longer than one taken, so that the timer for its answer
    // is a step the test can wait for.
    var timing = AnnouncerTiming()
    timing.acceptBound = timing.probeAnswerBound * 2
    let announcer = makeAnnouncer(timing)
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce("Saved")
    let first = try #require(await said.next())
    await backend.emit(.began(first.id), handledBy: announcer)
    // No sign of progress: a check goes out, and it is never answered.
    let checkAt = timing.progressCheckInterval
    await clock.waitForSleeper(until: checkAt)
    clock.advance(by: checkAt)
    let check = try #require(await said.next())
    #expect(check.request.purpose == .quietProbe)
    await clock.waitForSleeper(until: checkAt + timing.probeAnswerBound)
    clock.advance(by: timing.probeAnswerBound)
    #expect(await outcome == .gaveUp(.stalled))
    await announcer.close()
    #expect(backend.cancelCount == 1)
  }

  /// A daemon stopped with SIGSTOP: the message is sent and never taken. The announcement
  /// gives up when its window closes, the one waiting behind it at once, and closing does
  /// not wait for a backend that no longer answers.
  @Test func aBackendThatStopsAnsweringGivesUpAtTheEndOfTheWindowAndCloseDoesNotWait() async throws {
    let announcer = makeAnnouncer()
    var said = backend.said.makeAsyncIterator()
    backend.stopAnswering()
    defer { backend.answerAgain() }
    async let outcome = announcer.announce("one", retryTimeout: .seconds(5))
    _ = try #require(await said.next())
    async let second = announcer.announce("two", retryTimeout: .seconds(5))
    await announcer.waitUntilQueued()
    clock.advance(by: .seconds(5))
    #expect(await outcome == .gaveUp(.notAnswering))
    #expect(await second == .gaveUp(.notAnswering))
    // A close that waited for this backend would wait out the whole bound (and the test's time limit).
    await announcer.close(waitingAtMost: .seconds(600))
    #expect(backend.cancelCount == 0)
  }

  @Test func aBackendThatAnswersAgainWithinTheWindowSpeaks() async throws {
    let announcer = makeAnnouncer()
    var said = backend.said.makeAsyncIterator()
    backend.stopAnswering()
    async let outcome = announcer.announce("one", retryTimeout: .seconds(5))
    let first = try #require(await said.next())
    clock.advance(by: .seconds(3))
    backend.answerAgain()
    backend.emit(.began(first.id))
    backend.emit(.ended(first.id))
    #expect(await outcome == .spoken(attempts: 1, duration: .seconds(3)))
    await announcer.close()
  }

  @Test func aLostConnectionIsWaitedForAndTheAnnouncementRetriedWhenItReturns() async throws {
    let announcer = makeAnnouncer()
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce("one", retryTimeout: .seconds(10))
    let first = try #require(await said.next())
    await backend.emit(.began(first.id), handledBy: announcer)
    await backend.emit(.connectionLost, handledBy: announcer)
    clock.advance(by: .seconds(2))
    await backend.emit(.connectionRestored, handledBy: announcer)
    let probe = try #require(await said.next())
    #expect(probe.request.purpose == .quietProbe)
    await backend.emit(.ended(probe.id), handledBy: announcer)
    let settle = AnnouncerTiming().settleWindow
    await clock.waitForSleeper(until: .seconds(2) + settle)
    #expect(clock.sleeperCount == 1)
    clock.advance(by: settle)
    let settled = try #require(await said.next())
    backend.emit(.ended(settled.id))
    let retry = try #require(await said.next())
    #expect(retry.request.text == "one")
    backend.emit(.ended(retry.id))
    #expect(await outcome == .spoken(attempts: 2, duration: .seconds(2) + settle))
    await announcer.close()
  }

  @Test func aConnectionThatNeverReturnsGivesUpAtTheEndOfTheWindow() async throws {
    let announcer = makeAnnouncer()
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce("one", retryTimeout: .seconds(3))
    _ = try #require(await said.next())
    await backend.emit(.connectionLost, handledBy: announcer)
    clock.advance(by: .seconds(3))
    #expect(await outcome == .gaveUp(.disconnected))
    await announcer.close()
  }

  @Test func cancelAllGivesUpEverythingAndCancelsSpeech() async throws {
    let announcer = makeAnnouncer()
    var said = backend.said.makeAsyncIterator()
    let events = announcer.events()
    announcer.enqueue(Announcement("one"))
    announcer.enqueue(Announcement("two"))
    _ = try #require(await said.next())
    await announcer.cancelAll()
    #expect(backend.cancelCount >= 1)
    await announcer.waitUntilIdle()
    await announcer.close()
    var reasons: [AnnouncementID: GiveUpReason] = [:]
    for await event in events {
      if case .gaveUp(let reason) = event.kind { reasons[event.announcement] = reason }
    }
    #expect(reasons == [AnnouncementID(1): .cancelled, AnnouncementID(2): .cancelled])
  }

  @Test func theDefaultTimeoutIsThreeSeconds() {
    #expect(makeAnnouncer().defaultTimeout == .seconds(3))
    #expect(Announcement("x").retryTimeout == .seconds(3))
  }

  @Test func anAnnouncementThatGivesNoWindowTakesTheAnnouncersDefault() async throws {
    let announcer = Announcer(backend: backend, clock: clock, defaultTimeout: .zero)
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce(Announcement("Saved"))
    let first = try #require(await said.next())
    backend.emit(.began(first.id))
    backend.emit(.cancelled(first.id))
    // A window of 0 allows no retry; the announcement's own default of 3 s would have.
    #expect(await outcome == .gaveUp(.noRetry))
    await announcer.close()
  }

  @Test func plainTextIsMadeSpeakableOnceWhenQueuedAndEventsCarryThatText() async throws {
    let announcer = makeAnnouncer()
    var said = backend.said.makeAsyncIterator()
    let events = announcer.events()
    async let outcome = announcer.announce("\u{1B}[31mBuild failed\u{1B}[0m\u{7}")
    let first = try #require(await said.next())
    #expect(first.request.text == "Build failed")
    backend.emit(.began(first.id))
    backend.emit(.indexMark(first.id, name: final))
    backend.emit(.ended(first.id))
    #expect(await outcome.wasSpoken)
    await announcer.close()
    var texts: Set<String> = []
    for await event in events { texts.insert(event.text) }
    #expect(texts == ["Build failed"])
  }
}
