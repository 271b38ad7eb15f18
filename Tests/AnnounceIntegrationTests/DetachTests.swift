import Foundation
import Testing
import AnnouncerTesting

extension SpeakingTests {
  /// `--detach` against the real daemon. These are nested in ``SpeakingTests`` so that only one
  /// test speaks at a time.
  @Suite struct Detached: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// A fresh state directory for the log, and the log's path in it.
    func detachState() -> (environment: [String: String], log: String, directory: String) {
      let directory = NSTemporaryDirectory() + "announce-detach-\(getpid())-\(UUID().uuidString.prefix(8))"
      return (
        stack.clientEnvironment(["XDG_STATE_HOME": directory]), directory + "/announce/log.jsonl",
        directory
      )
    }

    /// The JSON objects of the log at `path`, once `count` of them say `event`, or after 20 seconds.
    func logEntries(at path: String, waitingFor count: Int, of event: String) -> [[String: Any]] {
      let deadline = Date().addingTimeInterval(20)
      var entries: [[String: Any]] = []
      repeat {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        entries = text.split(separator: "\n").compactMap {
          try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        if entries.filter({ $0["event"] as? String == event }).count >= count { break }
        Thread.sleep(forTimeInterval: 0.02)
      } while Date() < deadline
      return entries
    }

    @Test func detachExitsAtOnceAndTheAnnouncementIsThenHeardAndLogged() throws {
      let state = detachState()
      defer { try? FileManager.default.removeItem(atPath: state.directory) }
      let recording = try stack.record()
      let result = try Command.run(
        Command.announce, ["--detach", "The detached announcement"], environment: state.environment)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty && result.standardOutput.isEmpty)
      // It returned before the announcement was heard: nothing is logged yet.
      #expect(logEntries(at: state.log, waitingFor: 0, of: "spoken").isEmpty)
      let entries = logEntries(at: state.log, waitingFor: 1, of: "spoken")
      let speech = recording.stop()
      #expect(entries.count == 1, "\(entries)")
      #expect(entries.first?["event"] as? String == "spoken")
      #expect(entries.first?["text"] as? String == "The detached announcement")
      #expect(entries.first?["at"] is String && entries.first?["pid"] is Int)
      #expect(speech > 0.8, "\(speech) s of speech")
    }

    @Test func detachGoesOnReadingAPipeAfterItReturns() throws {
      let state = detachState()
      defer { try? FileManager.default.removeItem(atPath: state.directory) }
      try FileManager.default.createDirectory(atPath: state.directory, withIntermediateDirectories: true)
      // The second line is written only after announce --detach has exited.
      let script = """
        mkfifo "$STATE/fifo"
        "$0" --detach < "$STATE/fifo" &
        exec 3> "$STATE/fifo"
        echo "first line" >&3
        wait $!
        echo "detach exited $?"
        echo "second line" >&3
        exec 3>&-
        """
      var environment = state.environment
      environment["STATE"] = state.directory
      let result = try Command.run(
        "/bin/bash", ["-c", script, Command.announce], environment: environment)
      #expect(result.standardOutput == "detach exited 0\n", "\(result.standardError)")
      let entries = logEntries(at: state.log, waitingFor: 2, of: "spoken")
      #expect(entries.compactMap { $0["text"] as? String } == ["first line", "second line"])
    }

    @Test func detachWithOptionsKeepsThemInTheBackground() throws {
      let state = detachState()
      defer { try? FileManager.default.removeItem(atPath: state.directory) }
      let result = try Command.run(
        Command.announce, ["--timeout", "0", "--rate", "50", "--detach", "--", "--detach"],
        environment: state.environment)
      #expect(result.status == 0, "\(result.standardError)")
      let entries = logEntries(at: state.log, waitingFor: 1, of: "spoken")
      #expect(entries.compactMap { $0["text"] as? String } == ["--detach"])
    }
  }
}

extension SpeakingTests.Detached {
  @Test func aLogThatIsNotARegularFileIsNamedAndTheDeliveryGoesOn() throws {
    let state = detachState()
    defer { try? FileManager.default.removeItem(atPath: state.directory) }
    try FileManager.default.createDirectory(
      atPath: state.directory + "/announce", withIntermediateDirectories: true)
    #expect(mkfifo(state.log, 0o600) == 0)
    let result = try Command.run(Command.announce, ["--detach", "Saved"], environment: state.environment)
    #expect(result.status == 0)
    #expect(
      result.standardError
        == "The outcome log \(state.log) is not a regular file of yours, so outcomes are not logged; remove it.\n"
    )
  }
}

/// `--detach` errors that are reported before anything goes into the background.
@Suite struct DetachCommandTests {
  func announce(
    _ arguments: [String], environment extra: [String: String] = [:]
  ) throws
    -> (Command.Result, log: String)
  {
    let directory = NSTemporaryDirectory() + "announce-detach-\(getpid())-\(UUID().uuidString.prefix(8))"
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = directory
    environment.merge(extra) { _, new in new }
    let result = try Command.run(Command.announce, arguments, environment: environment)
    return (result, directory + "/announce/log.jsonl")
  }

  @Test(arguments: [
    ["--detach", "--rate", "500", "x"], ["--detach", "--json", "x"], ["--detach", "--verbose", "x"],
    ["--detach", "--list-voices"], ["--detach", "--input", "json", "x"],
  ])
  func usageErrorsStillExit64(arguments: [String]) throws {
    let (result, log) = try announce(arguments)
    #expect(result.status == 64, "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: log))
  }

  @Test func anUnreachableDaemonStillExits69WithItsSentence() throws {
    let socket = UnusedPath.file("announce.sock")
    let (result, log) = try announce(
      ["--detach", "Saved"], environment: ["SPEECHD_ADDRESS": "unix_socket:" + socket])
    #expect(result.status == 69)
    #expect(result.standardError.contains(socket))
    #expect(result.seconds < 2)
    // What could not be said is recorded as missed, for a replay once speech works.
    let recorded = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(
      recorded.contains("\"reason\":\"unreachable\"") && recorded.contains("\"text\":\"Saved\""),
      "\(recorded)")
  }

  @Test func invalidSSMLStillExits65() throws {
    let (result, _) = try announce(
      ["--detach", "--ssml", "<speak>Hi"],
      environment: ["SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("x.sock")]
    )
    #expect(result.status == 65)
    #expect(result.standardError.hasPrefix("Bad input"))
  }
}
