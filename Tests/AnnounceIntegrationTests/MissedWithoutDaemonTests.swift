import Foundation
import Testing
import AnnouncerTesting

extension SpeakingTests {
  /// Issue 32 items 1, 4 and 10 on the real stack: an announcement that never reached
  /// speech-dispatcher is recorded as missed and replayed once the daemon is back; a
  /// record whose module is gone is replayed with the default voice; the hooks' error
  /// lines keep the command line and the window name out of the log when the history is off.
  @Suite struct MissedWithoutDaemon: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// An address where no daemon listens.
    static let nowhere = ["SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("speechd.sock")]

    func environment(state: String, _ extra: [String: String] = [:]) -> [String: String] {
      var environment = stack.clientEnvironment(["XDG_STATE_HOME": state])
      environment.merge(extra) { _, new in new }
      return environment
    }

    func announce(
      _ arguments: [String], state: String, _ extra: [String: String] = [:]
    ) throws -> Command.Result {
      try Command.run(Command.announce, arguments, environment: environment(state: state, extra))
    }

    func freshState() -> String {
      NSTemporaryDirectory() + "announce-unheard-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

    /// Replays with the daemon back, and checks that speech was heard and nothing is missed after.
    func expectReplayed(state: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
      let recording = try stack.record()
      let replay = try announce(["replay"], state: state)
      let speech = recording.stop()
      #expect(replay.status == 0, "\(replay.standardError)", sourceLocation: sourceLocation)
      #expect(speech > 0.5, "\(speech) s of speech", sourceLocation: sourceLocation)
      let after = try announce(["history", "--missed"], state: state)
      #expect(after.standardOutput == "No announcement was missed.\n", sourceLocation: sourceLocation)
    }

    @Test func anAnnouncementWithNoDaemonIsRecordedAsMissedAndReplayedWhenItIsBack() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let failed = try announce(["Build failed in stage two"], state: state, Self.nowhere)
      #expect(failed.status == 69, "\(failed.standardError)")
      let missed = try announce(["history", "--missed"], state: state)
      #expect(
        missed.standardOutput.hasSuffix(
          " ago, not heard (speech-dispatcher unreachable): Build failed in stage two\n"),
        "\(missed.standardOutput)")
      try expectReplayed(state: state)
    }

    @Test func announcementsFloodControlDroppedAreRecordedAsMissedAndReplayed() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      // Six lines at once into a queue of one: the waiting ones are dropped.
      let input = (1...6).map { "Flooded line \($0).\n" }.joined()
      let flood = try Command.run(
        Command.announce, ["--json", "--max-queue", "1", "--rate", "100"],
        environment: environment(state: state), input: input, timeout: 60)
      #expect(flood.status == 1, "\(flood.standardError)")
      let dropped = jsonEvents(flood.standardOutput).filter { $0["reason"] as? String == "dropped" }
        .compactMap { $0["text"] as? String }
      #expect(!dropped.isEmpty, "\(flood.standardOutput)")
      let missed = try announce(["history", "--missed"], state: state)
      for text in dropped {
        #expect(missed.standardOutput.contains("(skipped in a flood): \(text)"), "\(missed.standardOutput)")
      }
      // The summary flood control spoke is no announcement of the user's.
      #expect(!missed.standardOutput.contains("skipped\n"), "\(missed.standardOutput)")
      let all = try announce(["history", "-n", "100"], state: state)
      #expect(
        !all.standardOutput.contains("messages skipped") && !all.standardOutput.contains("message skipped"))
      try expectReplayed(state: state)
    }

    @Test func aDetachedAnnouncementWithNoDaemonIsRecordedAsMissed() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let failed = try announce(["--detach", "Upload failed"], state: state, Self.nowhere)
      #expect(failed.status == 69, "\(failed.standardError)")
      let missed = try announce(["history", "--missed"], state: state)
      #expect(
        missed.standardOutput.hasSuffix(" ago, not heard (speech-dispatcher unreachable): Upload failed\n"),
        "\(missed.standardOutput)")
      try expectReplayed(state: state)
    }

    @Test func theShellHookWithNoDaemonRecordsItsSentenceAsMissed() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let hook = try announce(
        ["hook-finished", "--status", "2", "--milliseconds", "60000", "--", "make", "test"], state: state,
        Self.nowhere)
      #expect(hook.status == 69, "\(hook.standardError)")
      let missed = try announce(["history", "--missed"], state: state)
      #expect(missed.standardOutput.contains("(speech-dispatcher unreachable): "), "\(missed.standardOutput)")
      #expect(missed.standardOutput.contains("make test"), "\(missed.standardOutput)")
      try expectReplayed(state: state)
    }

    @Test func theTmuxHookWithNoDaemonRecordsItsSentenceAsMissed() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let alert = try announce(
        ["tmux-alert", "bell", "--server=4242", "--window=@3", "--index=3", "--", "build"], state: state,
        Self.nowhere)
      #expect(alert.status == 69, "\(alert.standardError)")
      let missed = try announce(["history", "--missed"], state: state)
      #expect(
        missed.standardOutput.hasSuffix("(speech-dispatcher unreachable): Bell in window 3, build.\n"),
        "\(missed.standardOutput)")
      try expectReplayed(state: state)
    }

    @Test func aRecordWhoseOutputModuleIsGoneIsReplayedWithTheDefaultVoice() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      // Without a daemon nothing can check the module, so the record keeps it.
      let failed = try announce(
        ["--output-module", "vanished", "--language", "xx", "Backup finished"], state: state, Self.nowhere)
      #expect(failed.status == 69, "\(failed.standardError)")
      let recording = try stack.record()
      let replay = try announce(["replay"], state: state)
      let speech = recording.stop()
      #expect(replay.status == 0, "\(replay.standardError)")
      #expect(speech > 0.5, "\(speech) s of speech")
      let lines = replay.standardError.split(separator: "\n")
      #expect(lines.count == 1, "\(replay.standardError)")
      #expect(
        lines.first?.hasPrefix("Replaying it with speech-dispatcher's default voice, because ") == true,
        "\(replay.standardError)")
      #expect(lines.first?.contains("\"vanished\"") == true, "\(replay.standardError)")
      let after = try announce(["history", "--missed"], state: state)
      #expect(after.standardOutput == "No announcement was missed.\n")
    }

    /// With the history off, a hook that fails on a bad variable logs why, but neither
    /// the command line nor the window name.
    @Test func theHooksErrorLinesKeepPrivateTextsOutWhenTheHistoryIsOff() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let off = ["ANNOUNCE_HISTORY": "off", "ANNOUNCE_TIMEOUT": "soon"]
      let hook = try announce(
        ["hook-finished", "--status", "2", "--milliseconds", "60000", "--", "deploy", "secret-token-31"],
        state: state, off)
      #expect(hook.status == 64, "\(hook.standardError)")
      let alert = try announce(
        ["tmux-alert", "bell", "--server=4242", "--window=@3", "--index=3", "--", "secret-window-77"],
        state: state, off)
      #expect(alert.status == 64, "\(alert.standardError)")
      let log = (try? String(contentsOfFile: state + "/announce/log.jsonl", encoding: .utf8)) ?? ""
      #expect(log.split(separator: "\n").count == 2, "\(log)")
      #expect(log.contains("ANNOUNCE_TIMEOUT"), "\(log)")
      #expect(!log.contains("secret-token-31") && !log.contains("secret-window-77"), "\(log)")
    }
  }
}
