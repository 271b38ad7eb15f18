import Foundation
import Synchronization
import Testing

extension SpeakingTests {
  /// Issue #39 item 10 on the real stack: a signal that arrives where no announcement's
  /// run handles signals, between two replayed records or just after the wait of
  /// `--when-done`, still ends the run with its status, and what was not heard stays missed.
  /// A ``SignallingRelay`` sends it at the moment the next run connects.
  @Suite struct SignalsBetweenRuns: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    func relay(at moment: SignallingRelay.Moment) throws -> SignallingRelay {
      try SignallingRelay(
        at: stack.directory + "/signalling-\(UUID().uuidString.prefix(8)).sock",
        daemonSocket: stack.address.replacing("unix_socket:", with: ""), at: moment)
    }

    /// Before, each replayed record armed and disarmed its own trap: a signal between two
    /// was lost, and the replay went on to say the rest.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalBetweenTwoReplayedRecordsEndsTheReplayAndLeavesTheRestToReplay(
      signal: Int32, status: Int32
    ) throws {
      let state = NSTemporaryDirectory() + "announce-signal-replay-\(getpid())-\(UUID().uuidString.prefix(8))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      try FileManager.default.createDirectory(atPath: state + "/announce", withIntermediateDirectories: true)
      // The second is long: spoken past the signal, it would be heard long after it.
      let texts = ["Missed number 1", "Missed number 2, " + Self.long, "Missed number 3"]
      let missed = (1...3).map { index in
        #"{"event":"gave-up","id":1,"text":"\#(texts[index - 1])","attempt":1,"time":2.0,"reason":"no-retry","key":"seed-\#(index)","priority":"text","at":"2026-01-01T00:00:00.000Z","pid":1}"#
      }
      try (missed.joined(separator: "\n") + "\n").write(
        toFile: state + "/announce/log.jsonl", atomically: false, encoding: .utf8)
      let relay = try relay(at: .firstConnectionAfterAnEnd)
      defer { relay.close() }
      let direct = stack.clientEnvironment(["XDG_STATE_HOME": state, "ANNOUNCE_RATE": "100"])
      var relayed = direct
      relayed["SPEECHD_ADDRESS"] = "unix_socket:" + relay.path
      let recording = try stack.record()
      let running = try Running(Command.announce, ["replay"], environment: relayed)
      let pid = running.pid
      let signalled = Mutex<Recording.Moment?>(nil)
      relay.run {
        signalled.withLock { $0 = recording.now() }
        kill(pid, signal)
      }
      let result = running.wait(timeout: 30)
      // The first record's last words may still play for a second after its END, as
      // the audio is buffered; the second, had it been spoken, would play on long after.
      Thread.sleep(forTimeInterval: 3.5)
      let data = recording.stopKeepingData()
      let moment = try #require(signalled.withLock { $0 }, "the relay never signalled")
      let after = Recording.speechSeconds(in: recording.samples(in: data, after: moment, plus: 1.5))
      #expect(relay.hasActed, "the second record never connected")
      #expect(result.status == status, "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count <= 1, "\(result.standardError)")
      #expect(Recording.speechSeconds(in: data) > 0.2, "the first record was not heard")
      #expect(after < 0.1, "\(after) s of speech more than 1.5 s after the signal")

      let left = try Command.run(Command.announce, ["history", "--missed"], environment: direct)
      let lines = left.standardOutput.split(separator: "\n")
      #expect(
        lines.count == 2 && lines.contains { $0.contains("Missed number 2, ") }
          && lines.contains { $0.hasSuffix("Missed number 3") }, "\(left.standardOutput)")
      // The ended replay's claim hides nothing: the next replay says the other two.
      let again = try Command.run(Command.announce, ["replay"], environment: direct)
      #expect(again.status == 0, "\(again.standardError)")
      let log = try String(contentsOfFile: state + "/announce/log.jsonl", encoding: .utf8)
      let heard = log.split(separator: "\n").compactMap { line -> String? in
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          object["event"] as? String == "spoken"
        else { return nil }
        return object["replays"] as? String
      }
      #expect(heard == ["seed-1", "seed-2", "seed-3"], "\(log)")
    }

    /// A signal that comes once the process has ended, while the run connects: before,
    /// the wait's trap was disarmed, the signal lost, and the announcement spoken.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalJustAfterTheWaitEndedEndsTheRunAndNothingIsSpoken(signal: Int32, status: Int32) throws {
      let relay = try relay(at: .firstConnection)
      defer { relay.close() }
      let sleeper = try Sleeper(seconds: 1)
      let recording = try stack.record()
      let running = try Running(
        Command.announce, ["--when-done", "\(sleeper.pid)", "Build finished"],
        environment: stack.clientEnvironment(["SPEECHD_ADDRESS": "unix_socket:" + relay.path]))
      let pid = running.pid
      relay.run { kill(pid, signal) }
      sleeper.waitUntilEnded()
      let result = running.wait(timeout: 20)
      // Long enough to hear the announcement, had it been spoken.
      Thread.sleep(forTimeInterval: 1.5)
      let speech = recording.stop()
      #expect(relay.hasActed, "announce never connected")
      #expect(result.status == status, "\(result.standardError)")
      let lines = result.standardError.split(separator: "\n")
      #expect(
        lines.count == 1
          && lines.first?.hasSuffix("came before its announcement was spoken; nothing was spoken.") == true,
        "\(lines)")
      #expect(speech < 0.1, "\(speech) s of speech")
    }
  }
}
