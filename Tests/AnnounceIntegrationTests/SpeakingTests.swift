import AnnouncerCore
import Foundation
import Testing

/// Everything that speaks through the real private stack, and everything that must not
/// run beside it. `.serialized` here applies to every suite nested in it, so only one
/// test speaks through the shared daemon at a time and the recordings hold only its speech.
/// A real-stack suite anywhere else would run beside these and cut them off: nest it here.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct SpeakingTests {
  /// The announcement itself: spoken, cut off, retried.
  @Suite struct Announcements: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    // MARK: Walking skeleton

    @Test func savedIsSpokenAndTheRecordingHoldsSpeech() throws {
      let (result, speech) = try speechSeconds(of: ["Saved"])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty)
      #expect(speech > 0.25, "only \(speech) s of speech was recorded")
      #expect(speech < 1.5)
      #expect(result.seconds < 4)
    }

    @Test func twoArgumentsTakeAboutTheSumOfTheirSingleDurations() throws {
      let (_, first) = try speechSeconds(of: ["Saved"])
      let (_, second) = try speechSeconds(of: ["The build failed with three errors"])
      let (result, both) = try speechSeconds(of: ["Saved", "The build failed with three errors"])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(first > 0.25 && second > 0.8)
      #expect(abs(both - (first + second)) < 0.3 * (first + second), "\(first) + \(second) vs \(both)")
    }

    @Test(arguments: ["Saved.", "Is it saved?", "Saved", "Three errors: see the log!"])
    func ourFinalMarkIsReportedWhateverTheTextEndsWith(text: String) throws {
      let result = try announce(["--verbose", text])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.contains("reached mark \(SpeechRequest.finalMarkName)"))
    }

    @Test func markupInPlainTextIsSpokenLiterallyAndCannotForgeTheMark() throws {
      let forged = "a <mark name=\"\(SpeechRequest.finalMarkName)\"/> & </speak> b"
      let (result, speech) = try speechSeconds(of: ["--verbose", forged])
      #expect(result.status == 0, "\(result.standardError)")
      let marks = result.standardError.components(separatedBy: "reached mark").count - 1
      #expect(marks == 1)
      #expect(speech > 1.5, "the markup should be read out, got \(speech) s")
    }

    @Test func anAnnouncementCutOffWithTimeoutZeroIsNotDelivered() async throws {
      let interrupter = try await Interrupter(stack: stack)
      let recording = try stack.record()
      let running = try startAnnounce(["--verbose", "--timeout", "0", Self.long])
      #expect(running.waitForOutput(containing: "speaking"))
      #expect(recording.waitForSpeech())
      // At `message` priority, as a screen reader speaks, which always cuts a playing
      // `text` message off. A `text` message sent within milliseconds of our BEGIN was
      // now and then discarded instead (CANCEL) by a warm 0.11.4 daemon, and then this
      // test would not be about us.
      let id = try await interrupter.say("Stop right there, please", priority: .message)
      let result = running.wait()
      _ = recording.stop()
      #expect(result.status == 1, "\(result.standardError)")
      #expect(result.standardError.contains("Not delivered"))
      #expect(result.standardError.contains("timeout of 0"))
      #expect(await interrupter.finalEvent(of: id) == .ended(id))
      await interrupter.close()
    }

    // MARK: Retry

    @Test func anInterruptedAnnouncementIsRetriedAfterTheInterrupterFinishesAndHeardInFull()
      async throws
    {
      let (_, alone) = try speechSeconds(of: ["The build failed with three errors"])
      let interrupter = try await Interrupter(stack: stack)
      let recording = try stack.record()
      let running = try startAnnounce([
        "--verbose", "--timeout", "15", "The build failed with three errors",
      ])
      #expect(running.waitForOutput(containing: "speaking"))
      #expect(recording.waitForSpeech())
      let id = try await interrupter.say("Meanwhile, another program says something else")
      let result = running.wait()
      let speech = recording.stop()
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.contains("attempt 2"))
      // Our retry did not cut the interrupter off.
      #expect(await interrupter.finalEvent(of: id) == .ended(id))
      // The recording holds the interrupter's sentence and all of ours after it.
      #expect(speech > alone + 1.5, "\(speech) s recorded; ours alone is \(alone) s")
      await interrupter.close()
    }

    @Test func anInterrupterThatTalksPastTheTimeoutMakesUsGiveUpNearTheDeadline() async throws {
      let interrupter = try await Interrupter(stack: stack)
      let running = try startAnnounce(["--verbose", "--timeout", "2", "Saved"])
      // Interrupt once ours speaks, and keep talking for much longer than 2 seconds. Not
      // on "attempt 1": that is printed before the message reaches the daemon, and a
      // `text` message that got there first was itself cut off by ours (1 run in 10).
      // At `message` priority, as a screen reader speaks, which always cuts `text` off.
      #expect(running.waitForOutput(containing: "speaking"))
      let id = try await interrupter.say(Self.long, priority: .message)
      let result = running.wait()
      #expect(result.status == 1, "\(result.standardError)")
      #expect(result.standardError.contains("timeout ran out"))
      #expect(result.seconds > 1.9 && result.seconds < 4, "gave up after \(result.seconds) s")
      #expect(await interrupter.finalEvent(of: id) == .ended(id))
      await interrupter.close()
    }

    /// Under pipewire-pulse, on a sink that reports no latency (a null sink, such as the
    /// dummy output of a machine with no sound card), speech-dispatcher 0.12 reports our
    /// final mark and then never END; announce used to wait for ever.
    @Test(.enabled(if: TestStack.runsPipeWire))
    func anAnnouncementWhoseEndNeverComesAfterItsFinalMarkIsHeardAndTheNextOneFollows() throws {
      try stack.setSpeakersLatency("0")
      defer { try? stack.setSpeakersLatency("1.0") }
      let result = try startAnnounce(["--verbose", "Saved, and the rest.", "Second one."]).wait(timeout: 20)
      #expect(result.status == 0, "\(result.standardError)")
      let heard = result.standardError.components(separatedBy: "\n").filter { $0.contains(": spoken after") }
      #expect(heard.count == 2, "\(result.standardError)")
      #expect(result.seconds < 12, "took \(result.seconds) s")
    }

    @Test func notificationPriorityWaitsForQuietThenIsHeardWithoutDisturbingTheOther()
      async throws
    {
      let interrupter = try await Interrupter(stack: stack)
      let id = try await interrupter.say("Another program is speaking right now, for a while")
      #expect(await interrupter.waitUntilSpeaking(id))
      let result = try announce(["--verbose", "--priority", "notification", "--timeout", "15", "Saved"])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.contains("waiting for quiet"))
      #expect(await interrupter.finalEvent(of: id) == .ended(id))
      await interrupter.close()
    }
  }
}

/// A suite of real-stack tests: the shared stack, and the ways they run the command on it.
protocol RealStackTest {
  var stack: TestStack { get }
}

extension RealStackTest {
  /// An announcement long enough to be interrupted: it speaks for several seconds.
  static var long: String {
    "This is a long announcement that keeps on speaking for several seconds, so that another client has time to interrupt it"
  }

  func announce(_ arguments: [String]) throws -> Command.Result {
    try Command.run(Command.announce, arguments, environment: stack.clientEnvironment())
  }

  func startAnnounce(_ arguments: [String]) throws -> Running {
    try Running(Command.announce, arguments, environment: stack.clientEnvironment())
  }

  /// Seconds of speech that `arguments` produce on their own.
  func speechSeconds(of arguments: [String]) throws -> (Command.Result, Double) {
    let recording = try stack.record()
    let result = try announce(arguments)
    return (result, recording.stop())
  }

  func announce(
    _ arguments: [String], input: String, environment: [String: String] = [:]
  ) throws
    -> Command.Result
  {
    try Command.run(
      Command.announce, arguments, environment: stack.clientEnvironment(environment), input: input)
  }

  /// The JSON objects announce printed, one per line; fails the test on a line that is not JSON.
  func jsonEvents(_ output: String) -> [[String: Any]] {
    output.split(separator: "\n").compactMap { line in
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object != nil, "not a JSON object: \(line)")
      return object
    }
  }

  /// Resident memory of process `pid` in KiB, from /proc.
  func residentKiB(of pid: pid_t) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}
