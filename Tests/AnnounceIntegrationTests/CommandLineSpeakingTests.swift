import Foundation
import Testing

extension SpeakingTests {
  /// The complete command against the real daemon. These tests extend ``SpeakingTests`` so
  /// that they share its serialization: only one test speaks through the stack at a time.
  @Suite struct CommandLine: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    @Test func standardInputLinesAreSpokenInOrderAndBlankLinesSkipped() throws {
      let result = try announce(["--json"], input: "one\n\n   \n  two  \r\nthree\n")
      #expect(result.status == 0, "\(result.standardError)")
      let events = jsonEvents(result.standardOutput)
      let spoken = events.filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
      #expect(spoken == ["one", "two", "three"])
    }

    @Test func theJSONStreamHoldsTheEventSequenceOfEachAnnouncement() throws {
      let result = try announce(["--json", "Saved"], input: "")
      #expect(result.status == 0, "\(result.standardError)")
      let events = jsonEvents(result.standardOutput)
      #expect(
        events.compactMap { $0["event"] as? String } == ["queued", "attempt", "begin", "mark", "spoken"])
      #expect(events.allSatisfy { $0["id"] as? Int == 1 && $0["text"] as? String == "Saved" })
      let times = events.compactMap { $0["time"] as? Double }
      #expect(times == times.sorted() && times.count == 5)
      #expect(events[3]["mark"] as? String == "announce-final")
      #expect((events[4]["duration"] as? Double ?? 0) > 0.3)
      #expect(events[1]["attempt"] as? Int == 1)
    }

    @Test func linesAreSpokenAsTheyArriveBeforeStandardInputCloses() throws {
      let running = try Running(
        Command.announce, ["--json"], environment: stack.clientEnvironment(),
        keepStandardInputOpen: true)
      running.write("first line\n")
      #expect(running.waitForOutput(containing: "\"event\":\"spoken\"", timeout: 10))
      running.write("second line\n")
      running.closeInput()
      let result = running.wait()
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.components(separatedBy: "\"event\":\"spoken\"").count == 3)
    }

    @Test func jsonInputGivesEachLineItsOwnOptionsAndRejectsMalformedLines() throws {
      let input = """
        {"text": "Saved", "timeout": 0, "priority": "message"}
        this is not json
        {"text": "Done", "rate": 50}
        {"rate": 1}

        """
      let result = try announce(["--input", "json", "--json"], input: input)
      #expect(result.status == 65, "\(result.standardError)")
      let events = jsonEvents(result.standardOutput)
      let rejected = events.filter { $0["event"] as? String == "rejected" }
      #expect(rejected.compactMap { $0["line"] as? Int } == [2, 4])
      let spoken = events.filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
      #expect(spoken == ["Saved", "Done"])
      #expect(result.standardError.contains("Skipped input line 2"))
      #expect(result.standardError.contains("Skipped input line 4: the object has no \"text\" field."))
    }

    @Test func aJSONLinesRateDoesNotLeakIntoTheNextLine() throws {
      let text = "The nightly backup of the build server finished without any errors."
      let input = """
        {"text": "\(text)"}
        {"text": "\(text)", "rate": 100}
        {"text": "\(text)"}

        """
      let result = try announce(["--input", "json", "--json"], input: input)
      #expect(result.status == 0, "\(result.standardError)")
      let durations = jsonEvents(result.standardOutput)
        .filter { $0["event"] as? String == "spoken" }
        .compactMap { $0["duration"] as? Double }
      try #require(durations.count == 3)
      let (plain, fast, after) = (durations[0], durations[1], durations[2])
      #expect(fast < plain * 0.75, "rate 100 took \(fast) s, the default \(plain) s")
      #expect(abs(after - plain) < plain * 0.2, "after the fast line \(after) s, alone \(plain) s")
    }

    @Test func aSoundIconIsPlayedBeforeTheText() throws {
      let (_, plain) = try speechSeconds(of: ["Mail"])
      let (result, withIcon) = try speechSeconds(of: ["--sound-icon", "prompt", "Mail"])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(withIcon > plain + 0.1, "icon: \(withIcon) s, plain: \(plain) s")
    }

    @Test func environmentDefaultsApplyAndFlagsOverrideThem() throws {
      let text = "The quick brown fox jumps over the lazy dog"
      let normal = try speechSecondsWithEnvironment([text], [:])
      let fast = try speechSecondsWithEnvironment([text], ["ANNOUNCE_RATE": "100"])
      let overridden = try speechSecondsWithEnvironment(["--rate", "0", text], ["ANNOUNCE_RATE": "100"])
      #expect(fast < normal * 0.8, "fast \(fast) s, normal \(normal) s")
      #expect(abs(overridden - normal) < normal * 0.2, "overridden \(overridden) s, normal \(normal) s")
    }

    func speechSecondsWithEnvironment(
      _ arguments: [String], _ environment: [String: String]
    ) throws
      -> Double
    {
      let recording = try stack.record()
      let result = try announce(arguments, input: "", environment: environment)
      #expect(result.status == 0, "\(result.standardError)")
      return recording.stop()
    }

    @Test func listsTheOutputModulesAndTheVoicesOfALanguage() throws {
      let modules = try announce(["--list-modules"], input: "")
      #expect(modules.status == 0, "\(modules.standardError)")
      #expect(modules.standardOutput.split(separator: "\n").contains("espeak-ng"))
      let voices = try announce(
        ["--list-voices", "--output-module", "espeak-ng", "--language", "de"], input: "")
      #expect(voices.status == 0, "\(voices.standardError)")
      let lines = voices.standardOutput.split(separator: "\n")
      #expect(!lines.isEmpty)
      #expect(lines.allSatisfy { $0.split(separator: "\t").count == 3 && $0.contains("\tde") })
    }
  }
}

extension SpeakingTests.CommandLine {
  /// The peak resident memory of process `pid` since it started, in KiB; 0 when unknown.
  /// VmHWM counts the program's own memory only: the rusage of `wait4` would count the
  /// test process's too, which a `posix_spawn` child shares until it executes.
  func peakKiB(of pid: pid_t) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
  }

  /// 64 MiB without a line end, as `tr '\0' a </dev/zero | announce -q` gives: the line is
  /// skipped as too long, the next line is still spoken, and the process's peak memory
  /// stays far below the input.
  @Test func aHugeLineWithoutALineEndIsSkippedInBoundedMemory() throws {
    let running = try Running(
      Command.announce, ["--json"], environment: stack.clientEnvironment(), keepStandardInputOpen: true)
    let chunk = String(repeating: "a", count: 1 << 20)
    for _ in 0..<64 { running.write(chunk) }
    // The writes have returned, so announce has read all but a pipe's worth, and waits for more.
    let peak = peakKiB(of: running.pid)
    running.write("\nHi\n")
    running.closeInput()
    let result = running.wait()
    print("announce read 64 MiB without a line end with a peak of \(peak / 1024) MiB")
    #expect(result.status == 65, "\(result.standardError)")
    #expect(
      result.standardError
        == "Skipped input line 1: it is longer than the limit of 4 MiB (4194304 bytes); "
        + "split it into shorter lines.\n")
    let spoken = jsonEvents(result.standardOutput).filter { $0["event"] as? String == "spoken" }
    #expect(spoken.compactMap { $0["text"] as? String } == ["Hi"])
    #expect(peak > 0 && peak < 48 << 10, "peak memory \(peak) KiB")
  }

  /// A line of a mebibyte is spoken, and its first words start soon.
  @Test func aMebibyteLineStartsSpeakingSoon() throws {
    let running = try Running(
      Command.announce, ["--json"], environment: stack.clientEnvironment(), keepStandardInputOpen: true)
    let line = String(repeating: "Words on a long line. ", count: (1 << 20) / 22) + "\n"
    let written = Date()
    running.write(line)
    let began = running.waitForOutput(containing: "\"event\":\"begin\"", timeout: 20)
    let seconds = Date().timeIntervalSince(written)
    print("a line of \(line.utf8.count) bytes began to be spoken after \(String(format: "%.2f", seconds)) s")
    running.send(SIGINT)
    let result = running.wait(timeout: 10)
    #expect(began, "\(result.standardError)")
    #expect(seconds < 5, "\(seconds) s before a line of a mebibyte began")
    #expect(result.status == 130, "\(result.standardError)")
  }
}
