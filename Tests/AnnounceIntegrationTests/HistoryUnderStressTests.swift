import Foundation
import Testing
import AnnouncerTesting

extension SpeakingTests {
  /// Issue 32 items 2 and 7 with the real binary, as separate processes: a flood of
  /// rejected input and a giant line leave the missed announcements to replay, and
  /// replays and writers at once lose no record and never stay busy.
  @Suite(.serialized) struct HistoryUnderStress: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// An address where no daemon listens: a run there records its texts as missed at once.
    static let nowhere = ["SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("speechd.sock")]

    func environment(state: String, _ extra: [String: String] = [:]) -> [String: String] {
      var environment = stack.clientEnvironment(["XDG_STATE_HOME": state])
      environment.merge(extra) { _, new in new }
      return environment
    }

    func announce(
      _ arguments: [String], state: String, _ extra: [String: String] = [:], input: String? = nil,
      timeout: Double = 60
    ) throws -> Command.Result {
      try Command.run(
        Command.announce, arguments, environment: environment(state: state, extra), input: input,
        timeout: timeout)
    }

    func freshState() -> String {
      NSTemporaryDirectory() + "announce-stress-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

    /// `seq 1 20000 | sed 's/^/INFO served /' | announce --input json --quiet`, and a
    /// 1.5 MB line, after 5 missed announcements.
    @Test func aFloodOfRejectedLinesAndAGiantLineLeaveTheMissedOnesToReplay() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let missedTexts = (1...5).map { "Missed \($0)" }
      #expect(try announce(missedTexts, state: state, Self.nowhere).status == 69)
      let flood = (1...20_000).map { "INFO served \($0)\n" }.joined()
      let flooded = try announce(["--input", "json", "--quiet"], state: state, input: flood)
      #expect(flooded.status == 65, "\(flooded.standardError)")
      let giant = String(repeating: "word ", count: 300_000) + "\n"
      let rejected = try announce(["--input", "json", "--quiet"], state: state, input: giant)
      #expect(rejected.status == 65, "\(rejected.standardError)")

      let missed = try announce(["history", "--missed"], state: state)
      let listed = missed.standardOutput.split(separator: "\n")
      #expect(listed.count == 5, "\(missed.standardOutput.prefix(2000))")
      #expect(listed.first?.hasSuffix(": Missed 5") == true && listed.last?.hasSuffix(": Missed 1") == true)

      let recording = try stack.record()
      let replay = try announce(["replay"], state: state, timeout: 120)
      let speech = recording.stop()
      #expect(replay.status == 0, "\(replay.standardError)")
      #expect(speech > 2, "\(speech) s of speech for 5 announcements")
      let after = try announce(["history", "--missed"], state: state)
      #expect(after.standardOutput == "No announcement was missed.\n")
      let all = try announce(["history", "-n", "100"], state: state).standardOutput.split(separator: "\n")
      #expect(all.count == 10, "\(all)")
    }

    /// 6,000 outcomes of the longest texts a record keeps, so that the log rotates twice
    /// and the second rotation carries missed ones forward, then the flood: the last
    /// 1,000 outcomes are all still listed, newest first, and the carried ones in their
    /// place in time, not among the newest.
    @Test func theHistoryKeepsAtLeastTheLastThousandOutcomesThroughAFlood() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let long = String(repeating: "long words ", count: 90)
      for batch in 0..<15 {
        let texts = (1...400).map { "Outcome \(batch * 400 + $0) \(long)" }
        #expect(try announce(texts, state: state, Self.nowhere).status == 69)
      }
      let flood = (1...20_000).map { "INFO served \($0)\n" }.joined()
      #expect(try announce(["--input", "json", "--quiet"], state: state, input: flood).status == 65)
      // The newest file starts with announcements older than those of the file before it.
      func firstNumber(_ file: String) -> Int? {
        let text = try? String(contentsOfFile: state + "/announce/" + file, encoding: .utf8)
        let first = text?.split(separator: "\n").first?.split(separator: "Outcome ").dropFirst().first
        return first?.split(separator: " ").first.flatMap { Int($0) }
      }
      let carried = try #require(firstNumber("log.jsonl"))
      let older = try #require(firstNumber("log.jsonl.1"))
      #expect(carried < older, "nothing was carried forward")
      let listed = try announce(["history", "-n", "5000"], state: state).standardOutput.split(separator: "\n")
      #expect(listed.count >= 1_000, "\(listed.count) outcomes listed")
      #expect(listed.first?.contains(": Outcome 6000 long words") == true, "\(listed.first ?? "")")
      let numbers = listed.prefix(1_000).compactMap { line in
        line.split(separator: ": Outcome ").last?.split(separator: " ").first.flatMap { Int($0) }
      }
      #expect(numbers == Array((5_001...6_000).reversed()), "not the last 1,000 in order")
    }

    /// Issue 39 item 2: the older file holds 1,000 missed records, the current one is
    /// full, and one write runs under `ulimit -f 100`. The rotation renamed first and then
    /// could not write: the current file was left empty, the 1,000 were gone, and the
    /// message blamed a full disk.
    @Test func aRotationUnderAFileSizeLimitLosesNothingAndNamesTheLimit() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let directory = state + "/announce"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let stamp = #""at":"2026-01-01T00:00:00.000Z","pid":1"#
      let older =
        (1...1_000).map { index in
          #"{"event":"gave-up","id":1,"text":"Missed \#(index) "# + String(repeating: "word ", count: 30)
            + #"","attempt":1,"time":2.0,"reason":"interrupted","key":"seed-\#(index)","priority":"text","#
            + stamp + "}"
        }.joined(separator: "\n") + "\n"
      try older.write(toFile: directory + "/log.jsonl.1", atomically: false, encoding: .utf8)
      let heard =
        #"{"event":"spoken","id":1,"text":"Heard "# + String(repeating: "x", count: 200) + "\",\"key\":\"h\","
        + stamp + "}\n"
      let current = String(repeating: heard, count: (3 << 20) / heard.utf8.count)
      try current.write(toFile: directory + "/log.jsonl", atomically: false, encoding: .utf8)

      var environment = environment(state: state, Self.nowhere)
      environment["ANNOUNCE"] = Command.announce
      let limited = try Command.run(
        "/bin/bash", ["-c", "ulimit -f 100; exec \"$ANNOUNCE\" 'One more missed'"], environment: environment)
      #expect(limited.status == 69, "\(limited.standardError)")
      #expect(limited.standardError.contains("(File too large)"), "\(limited.standardError)")
      #expect(!limited.standardError.contains("No space left"), "\(limited.standardError)")
      #expect(try String(contentsOfFile: directory + "/log.jsonl.1", encoding: .utf8) == older)
      #expect(try String(contentsOfFile: directory + "/log.jsonl", encoding: .utf8) == current)
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
        $0.hasSuffix(".new")
      }
      #expect(leftovers.isEmpty, "\(leftovers)")
      let missed = try announce(["history", "--missed", "-n", "5000"], state: state)
      #expect(missed.standardOutput.split(separator: "\n").count == 1_000)
    }

    /// Ten replays and ten writers at once, each its own process.
    @Test func tenReplaysAndTenWritersAsProcessesLoseNothingAndNeverStayBusy() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      // A log of about 1.5 MB to read, with ten short missed announcements at its end.
      let filler = String(repeating: "filler ", count: 120)
      for batch in 0..<6 {
        let texts = (1...250).map { "Old \(batch * 250 + $0) \(filler)" }
        #expect(try announce(texts, state: state, Self.nowhere).status == 69)
      }
      #expect(try announce(["history", "--missed"], state: state).status == 0)
      #expect(try announce((1...10).map { "Ping \($0)" }, state: state, Self.nowhere).status == 69)

      let replays = try (1...10).map { _ in
        try Running(Command.announce, ["replay", "-n", "1"], environment: environment(state: state))
      }
      let writers = try (1...10).map { writer in
        try Running(
          Command.announce, (1...5).map { "Writer \(writer) line \($0)" },
          environment: environment(state: state, Self.nowhere))
      }
      let written = writers.map { $0.wait(timeout: 120) }
      let replayed = replays.map { $0.wait(timeout: 180) }
      for result in written {
        #expect(result.status == 69, "\(result.standardError)")
        #expect(!result.standardError.contains("not logged") && !result.standardError.contains("busy"))
      }
      for result in replayed {
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("stayed") && !result.standardError.contains("busy"))
      }
      let json = try announce(["history", "--json", "-n", "100000"], state: state).standardOutput
      let records = json.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      let texts = Set(records.compactMap { $0["text"] as? String })
      for writer in 1...10 {
        for line in 1...5 { #expect(texts.contains("Writer \(writer) line \(line)")) }
      }
      let replayedKeys = records.compactMap { $0["replays"] as? String }
      #expect(replayedKeys.count == 10, "\(replayedKeys.count) replays recorded")
      #expect(Set(replayedKeys).count == replayedKeys.count, "a record was replayed twice")
    }
  }
}
