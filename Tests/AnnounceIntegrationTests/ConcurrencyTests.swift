import AnnouncerCore
import Foundation
import Testing

extension SpeakingTests {
  /// Several announce processes at once, a second client's events, very long lines and
  /// floods, against the real daemon. These are nested in ``SpeakingTests`` to share its serialization.
  @Suite struct Concurrency: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    @Test func sixProcessesStartedTogetherAreAllHeardInFullWithoutCuttingEachOtherOff() throws {
      let text = "The build has finished"
      let single = try speechSeconds(of: [text]).1
      let recording = try stack.record()
      let processes = try (1...6).map { _ in
        try Running(
          Command.announce, ["--json", "--timeout", "30", text], environment: stack.clientEnvironment())
      }
      let results = processes.map { $0.wait(timeout: 60) }
      let total = recording.stop()
      for result in results {
        #expect(result.status == 0, "\(result.standardError)")
        let events = jsonEvents(result.standardOutput).compactMap { $0["event"] as? String }
        // Each was heard at its first attempt: nobody cut anybody off, and nobody retried.
        #expect(!events.contains("interrupted"), "\(events)")
        #expect(events.filter { $0 == "attempt" }.count == 1, "\(events)")
      }
      let waited = results.filter { $0.standardOutput.contains("\"waiting-for-turn\"") }.count
      #expect(waited >= 4, "only \(waited) of six waited for their turn")
      #expect(single > 0.5)
      #expect(abs(total - 6 * single) < 0.15 * 6 * single, "six: \(total) s, one: \(single) s")
    }

    /// Issue #16: a turns directory announce cannot trust is reported in one line, and
    /// the announcement is still spoken (without taking turns).
    @Test func anUnusableTurnsDirectoryIsReportedInOneLineAndSpeechGoesOn() throws {
      let runtime = NSTemporaryDirectory() + "announce-runtime-\(UUID().uuidString)"
      #expect(mkdir(runtime, 0o700) == 0)
      defer { try? FileManager.default.removeItem(atPath: runtime) }
      let directory = runtime + "/announce"
      #expect(mkdir(directory, 0o700) == 0)
      var variants = [
        ("others can use \(directory) (mode 777); run chmod 700 on it.", { chmod(directory, 0o777) })
      ]
      // Another user made it first: only root can make one for another user here.
      if getuid() == 0 {
        variants.append(
          (
            "\(directory) belongs to another user (uid 65534); have it removed",
            { chown(directory, 65534, 65534) }
          ))
      }
      for (expected, spoil) in variants {
        #expect(spoil() == 0)
        let result = try Running(
          Command.announce, ["Saved"], environment: stack.clientEnvironment(["XDG_RUNTIME_DIR": runtime])
        ).wait(timeout: 30)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("Taking turns with other announce processes is off because ") == true)
        #expect(lines.first?.contains(expected) == true, "\(lines)")
      }
    }

    @Test func aSecondClientsEventsNeverReachOurConnection() async throws {
      let ours = try await SpeechdClient.connect(address: stack.address, environment: [:], appName: "ours")
      let other = try await Interrupter(stack: stack)
      let received = Locked<[SpeechEvent]>([])
      let collector = Task {
        for await event in ours.events { received.withLock { $0.append(event) } }
      }
      var otherIDs: [MessageID] = []
      var ourIDs: [MessageID] = []
      for index in 1...3 {
        otherIDs.append(try await other.say("other \(index)", priority: .message))
        ourIDs.append(try await ours.say(SpeechRequest(attemptOf: Announcement("ours \(index)"))))
      }
      for id in otherIDs { _ = await other.finalEvent(of: id) }
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        let finished = received.withLock { events in
          ourIDs.allSatisfy { id in events.contains { $0 == .ended(id) || $0 == .cancelled(id) } }
        }
        if finished { break }
        try await Task.sleep(for: .milliseconds(20))
      }
      await ours.close()
      await collector.value
      await other.close()
      let events = received.withLock { $0 }
      let ids = Set(events.compactMap(\.messageID))
      #expect(!events.isEmpty)
      #expect(ids.isSubset(of: Set(ourIDs)), "foreign ids \(ids.subtracting(ourIDs)) reached our connection")
      #expect(Set(otherIDs).isDisjoint(with: ourIDs))
    }

    /// How soon the first part is spoken is a speed goal, measured in `bench/run` (row 2, a
    /// 1 MiB line, ≤ 1 s): as an expectation here it failed on a loaded machine (1.96 s at
    /// load 28). The waits below only keep a hang from holding the suite.
    @Test func aMegabyteLineIsSpokenInPartsInOrder() throws {
      var sentences: [String] = []
      var size = 0
      var index = 0
      while size < 1 << 20 {
        index += 1
        let sentence = "Sentence number \(index) of a very long line."
        sentences.append(sentence)
        size += sentence.utf8.count + 1
      }
      let line = sentences.joined(separator: " ")
      let running = try Running(
        Command.announce, ["--json", "--rate", "100"], environment: stack.clientEnvironment(),
        keepStandardInputOpen: true)
      running.write(line + "\n")
      running.closeInput()
      #expect(running.waitForOutput(containing: "\"event\":\"begin\"", timeout: 60))
      #expect(running.waitForOutput(containing: "\"part\":2,", timeout: 40))
      let resident = residentKiB(of: running.pid)
      running.send(SIGINT)
      let result = running.wait(timeout: 10)
      #expect(result.status == 130, "\(result.standardError)")
      #expect(resident > 0 && resident < 64 * 1024, "\(resident) KiB resident")
      let events = jsonEvents(result.standardOutput)
      let begins = events.filter { $0["event"] as? String == "begin" }
      let firstBegin = try #require(begins.first)
      let parts = firstBegin["parts"] as? Int ?? 0
      #expect(parts > 2000, "\(parts) parts")
      let attempts = events.filter { $0["event"] as? String == "attempt" }
      #expect(attempts.compactMap { $0["part"] as? Int }.prefix(2) == [1, 2])
      // Each part is a run of whole sentences, in order, starting with the first.
      let texts = attempts.compactMap { $0["text"] as? String }
      #expect(texts.first?.hasPrefix("Sentence number 1 of a very long line. Sentence number 2 ") == true)
      #expect(texts.allSatisfy { $0.hasSuffix(".") && $0.count <= TextParts.longestPart })
      #expect(texts.joined(separator: " ").hasPrefix(sentences.prefix(10).joined(separator: " ")))
      // The queued event carries the whole line once; no line was cut short.
      let queued = events.first { $0["event"] as? String == "queued" }
      #expect((queued?["text"] as? String)?.count == line.count)
    }

    @Test func tenThousandLinesFinishPromptlyAndTheSkippedOnesAreSummedUp() throws {
      let input = (1...10_000).map { "line \($0)\n" }.joined()
      let result = try Command.run(
        Command.announce, ["--json", "--max-queue", "5", "--rate", "100"],
        environment: stack.clientEnvironment(), input: input, timeout: 60)
      #expect(result.status == 1, "\(result.standardError)")
      #expect(result.seconds < 30, "took \(result.seconds) s")
      let events = jsonEvents(result.standardOutput)
      let dropped = events.filter { $0["reason"] as? String == "dropped" }.count
      let spoken = events.filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
      let summaries = spoken.filter { $0.hasSuffix("skipped") }
      let summed = summaries.compactMap { Int($0.split(separator: " ").first ?? "") }.reduce(0, +)
      #expect(!summaries.isEmpty)
      #expect(summed == dropped, "summaries \(summaries) for \(dropped) dropped")
      #expect(dropped + spoken.count - summaries.count == 10_000)
      #expect(spoken.last == "line 10000")
      #expect(result.standardError.contains("Skipped \(dropped) announcements"))
      #expect(result.standardError.contains("--max-queue"))
      // Dropped ones are summed up on standard error, not listed one by one.
      #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError.prefix(500))")
    }

    @Test func aRepeatedLineWaitingInTheQueueIsMergedNotSpokenTwice() throws {
      let result = try announce(
        ["--json", "--rate", "50"], input: "first\nrepeated\nrepeated\nrepeated\nlast\n")
      #expect(result.status == 0, "\(result.standardError)")
      let events = jsonEvents(result.standardOutput)
      let spoken = events.filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
      #expect(spoken == ["first", "repeated", "last"])
      let merged = events.filter { $0["event"] as? String == "merged" }
      #expect(merged.count == 2)
      #expect(merged.allSatisfy { $0["into"] as? Int == 2 })
    }
  }
}
