import Foundation
import Testing

extension SpeakingTests {
  /// Faults of the speech stack and bad input. These are nested in ``SpeakingTests`` so that they
  /// never run beside the timing-sensitive speech tests.
  @Suite struct Faults: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    @Test func brokenAudioIsDetectedAsStalledAndExits69WithAHint() throws {
      let broken = try TestStack.brokenAudio.get()
      let result = try Command.run(
        Command.announce, ["--json", "Saved"], environment: broken.clientEnvironment(), timeout: 30)
      #expect(result.status == 69, "\(result.standardError)")
      // BEGIN, a progress check 1 s later, 2 s for its answer, and slack.
      #expect(result.seconds < 8, "took \(result.seconds) s")
      #expect(result.standardOutput.contains("\"reason\":\"stalled\""))
      #expect(result.standardError.contains("audio output"))
      #expect(result.standardError.contains("log"))
      #expect(result.standardError.split(separator: "\n").count == 1)
    }

    /// With the audio output broken, the first announcement stalls and the two
    /// waiting behind it are given up at once: one sentence, and no second stall.
    @Test func brokenAudioGivesUpTheWaitingAnnouncementsAtOnceWithOneSentence() throws {
      // A stall may leave the daemon blocked for good, so this test gets a broken stack of its own.
      let broken = try TestStack.start(name: "broken-three", .brokenAudio)
      defer { broken.stop() }
      let result = try Command.run(
        Command.announce, ["--json", "One", "Two", "Three"], environment: broken.clientEnvironment(),
        timeout: 30)
      #expect(result.status == 69, "\(result.standardError)")
      #expect(result.standardOutput.components(separatedBy: "\"reason\":\"stalled\"").count == 4)
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1, "\(result.standardError)")
      #expect(result.standardError.contains("\"One\" and the 2 announcements waiting after it"))
      // One stall (BEGIN, a progress check 1 s later, 2 s for its answer), not three.
      #expect(result.seconds < 8, "took \(result.seconds) s")
    }

    /// 12 emoji take about 9 s to speak (each is read as "party popper"), far longer
    /// than a guess from their 12 characters allowed (5.5 s); the speech is playing, so
    /// it is not a stall.
    @Test func speechThatTakesLongerThanItsLengthSuggestsIsSpokenToTheEnd() throws {
      let recording = try stack.record()
      let result = try Command.run(
        Command.announce, [String(repeating: "🎉", count: 12)], environment: stack.clientEnvironment())
      let speech = recording.stop()
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty)
      #expect(speech > 6, "only \(speech) s of speech was recorded")
    }

    @Test func aClosedStandardOutputDoesNotCrashTheJSONStream() throws {
      let result = try Command.run(
        "/bin/bash",
        ["-c", "\"$0\" --json one two | head -n 1; echo \"status ${PIPESTATUS[0]}\"", Command.announce],
        environment: stack.clientEnvironment())
      #expect(result.standardOutput.hasPrefix("{\"event\":\"queued\""))
      #expect(result.standardOutput.contains("status 0"), "\(result.standardOutput) \(result.standardError)")
    }

    @Test func invalidUTF8AndEscapeSequencesAreCleanedNotFatal() throws {
      let plainRecording = try stack.record()
      _ = try Command.run(Command.announce, ["red and bytes"], environment: stack.clientEnvironment())
      let plain = plainRecording.stop()
      let recording = try stack.record()
      let result = try Command.run(
        "/bin/bash",
        ["-c", "printf '\\033[31mred\\033[0m and \\377\\376bytes\\a\\n' | \"$0\" --json", Command.announce],
        environment: stack.clientEnvironment())
      let dirty = recording.stop()
      #expect(result.status == 0, "\(result.standardError)")
      let events = result.standardOutput.split(separator: "\n")
      #expect(events.contains { $0.contains("\"event\":\"spoken\"") })
      // The escape sequences and the bell are gone; the invalid bytes became U+FFFD.
      #expect(events.allSatisfy { !$0.contains("\\u001b") && !$0.contains("\\u0007") })
      #expect(events.first?.contains("red and \u{FFFD}\u{FFFD}bytes") == true, "\(events.first ?? "")")
      // "[31m" was not read out: the speech takes about as long as the clean text's.
      #expect(abs(dirty - plain) < 0.5, "clean \(plain) s, cleaned \(dirty) s")
    }

    @Test func aFloodOnStandardInputKeepsMemoryBoundedByTheQueue() throws {
      let running = try Running(
        Command.announce, ["--quiet", "--timeout", "0"], environment: stack.clientEnvironment(),
        keepStandardInputOpen: true)
      let total = 2_000_000
      let written = Locked(0)
      let writer = Thread {
        let chunk = String(repeating: "flood line\n", count: 1000)
        for _ in 0..<(total / 1000) {
          running.write(chunk)
          written.withLock { $0 += 1000 }
        }
      }
      writer.start()
      Thread.sleep(forTimeInterval: 4)
      let resident = residentKiB(of: running.pid)
      let writtenWhileRunning = written.withLock { $0 }
      running.send(SIGTERM)
      let result = running.wait(timeout: 10)
      #expect(result.status == 143)
      #expect(resident > 0 && resident < 64 * 1024, "\(resident) KiB resident")
      // announce kept reading (flood control drops instead of blocking the producer),
      // yet memory stayed bounded by the queue.
      #expect(writtenWhileRunning > 10_000, "only \(writtenWhileRunning) lines were taken")
    }

    @Test func aKilledDaemonIsNoticedAndTheAnnouncementRetriedWhenItComesBack() throws {
      let restartable = try TestStack.start(name: "restartable")
      defer { restartable.stop() }
      let running = try Running(
        Command.announce, ["--verbose", "--timeout", "25", Self.long],
        environment: restartable.clientEnvironment())
      #expect(running.waitForOutput(containing: "speaking"))
      let killed = Date()
      restartable.stop()
      #expect(running.waitForOutput(containing: "connection lost", timeout: 3))
      #expect(Date().timeIntervalSince(killed) < 1.5, "the loss was noticed late")
      try restartable.startAgain()
      let result = running.wait(timeout: 40)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.contains("attempt 2"))
    }

    @Test func aDaemonThatStaysAwayMakesUsGiveUpWith69NamingTheAddress() throws {
      let doomed = try TestStack.start(name: "doomed")
      let running = try Running(
        Command.announce, ["--verbose", "--timeout", "2", Self.long],
        environment: doomed.clientEnvironment())
      #expect(running.waitForOutput(containing: "speaking"))
      doomed.stop()
      let result = running.wait(timeout: 20)
      #expect(result.status == 69, "\(result.standardError)")
      #expect(result.standardError.contains(doomed.directory + "/speechd.sock"))
      #expect(result.standardError.contains("did not come back in time"))
    }
  }
}
