import Foundation
import Testing

extension SpeakingTests {
  /// `announce --notify` and `--notify-only` themselves, against the real dunst on a
  /// private desktop (Tests/Support/notifystack: dunst 1.9 for `TESTSTACK_RELEASE=12`, 1.12
  /// for 13), with `dunstctl` playing the user. dunst there lets a normal notification
  /// expire after 2 s and keeps a critical one (`--priority important`) until it is closed.
  /// Nested in ``SpeakingTests`` so that scripts/test's Debian 13 pass runs it too.
  @Suite struct NotifyAnnounceTests: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// The environment announce runs with: the speech stack's, the desktop's bus and
    /// display, and a history of its own in `home`.
    func environment(
      _ desktop: NotifyStack, home: [String: String], _ extra: [String: String] = [:]
    ) -> [String: String] {
      stack.clientEnvironment(
        desktop.environment.merging(home) { _, new in new }.merging(extra) { _, new in new })
    }

    /// Polls until dunst shows `count` notifications, at most `timeout` seconds.
    func waitUntilDisplayed(_ desktop: NotifyStack, _ count: Int, timeout: Double = 10) -> Bool {
      let deadline = Date().addingTimeInterval(timeout)
      while Date() < deadline {
        if (try? desktop.dunstctl("count", "displayed")) == String(count) { return true }
        Thread.sleep(forTimeInterval: 0.05)
      }
      return false
    }

    /// A private HOME and state folder, removed by the caller.
    func privateHome() -> (environment: [String: String], folder: String) {
      let home = Command.privateHome()
      return (home, home["HOME"] ?? "")
    }

    @Test func aNotificationTheUserClosesIsSeen() throws {
      let desktop = try NotifyStack()
      let (home, folder) = privateHome()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let running = try Running(
        Command.announce,
        ["--notify-only", "--json", "--priority", "important", "--timeout", "30", "Build finished"],
        environment: environment(desktop, home: home))
      #expect(waitUntilDisplayed(desktop, 1))
      try desktop.dunstctl("close")
      let result = running.wait(timeout: 30)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"event\":\"seen\""), "\(result.standardOutput)")
      // Well under the wait of 30 s: the close ended it.
      #expect(result.seconds < 20)
      let history = try desktop.dunstctl("history")
      #expect(history.contains("Build finished") && history.contains("announce"))
    }

    @Test func anActionTheUserInvokesIsSeenWithItsKey() throws {
      let desktop = try NotifyStack()
      let (home, folder) = privateHome()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let running = try Running(
        Command.announce,
        ["--notify-only", "--json", "--priority", "important", "--timeout", "30", "Deployed"],
        environment: environment(desktop, home: home))
      #expect(waitUntilDisplayed(desktop, 1))
      try desktop.dunstctl("action", "0")
      let result = running.wait(timeout: 30)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"event\":\"seen\""), "\(result.standardOutput)")
      #expect(result.standardOutput.contains("\"action\":\"default\""), "\(result.standardOutput)")
    }

    @Test func anExpiredNotificationIsMissedAndReplayBringsItBack() throws {
      let desktop = try NotifyStack()
      let (home, folder) = privateHome()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let run = try Command.run(
        Command.announce, ["--notify-only", "--json", "--timeout", "20", "Backup done"],
        environment: environment(desktop, home: home), timeout: 30)
      #expect(run.status == 1, "\(run.standardError)")
      #expect(run.standardOutput.contains("\"event\":\"expired\""), "\(run.standardOutput)")
      let missed = try Command.run(
        Command.announce, ["history", "--missed"], environment: environment(desktop, home: home), timeout: 30)
      #expect(
        missed.standardOutput.contains("notification not seen (expired unseen): Backup done"), "\(missed)")
      // replay shows it again under ANNOUNCE_NOTIFY=only; a wait of 0 leaves it on screen as shown.
      let replayEnvironment = environment(
        desktop, home: home, ["ANNOUNCE_NOTIFY": "only", "ANNOUNCE_TIMEOUT": "0"])
      let replay = try Command.run(Command.announce, ["replay"], environment: replayEnvironment, timeout: 30)
      #expect(replay.status == 0, "\(replay.standardError)")
      let replayed = try desktop.dunstctl("history")
      #expect(waitUntilDisplayed(desktop, 1) || replayed.contains("Backup done"))
      let after = try Command.run(
        Command.announce, ["history", "--missed"], environment: environment(desktop, home: home), timeout: 30)
      #expect(!after.standardOutput.contains("Backup done"), "\(after.standardOutput)")
    }

    @Test func notifyOnlyWithNoServerExits69WithOneLineThatSaysWhatToStart() throws {
      let desktop = try NotifyStack(server: false)
      let (home, folder) = privateHome()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let result = try Command.run(
        Command.announce, ["--notify-only", "Saved"], environment: environment(desktop, home: home),
        timeout: 30)
      #expect(result.status == 69, "\(result.standardError)")
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1 && result.standardError.contains("start one, such as dunst"), "\(lines)")
    }

    @Test func aServerThatStopsWhileANotificationIsUpEndsItAsNoServer() throws {
      let desktop = try NotifyStack()
      let (home, folder) = privateHome()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let running = try Running(
        Command.announce,
        ["--notify-only", "--json", "--priority", "important", "--timeout", "30", "Still here"],
        environment: environment(desktop, home: home))
      #expect(waitUntilDisplayed(desktop, 1))
      try desktop.stopServer()
      let result = running.wait(timeout: 30)
      #expect(result.status == 69, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"event\":\"no-server\""), "\(result.standardOutput)")
      #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
      #expect(result.seconds < 20)
    }

    @Test func aFloodIsBoundedWithOneSummaryReplacedInPlace() throws {
      let desktop = try NotifyStack()
      let (home, folder) = privateHome()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let texts = (1...6).map { "Line \($0)" }
      let running = try Running(
        Command.announce,
        ["--notify-only", "--json", "--priority", "important", "--timeout", "5", "--max-queue", "2"] + texts,
        environment: environment(desktop, home: home))
      #expect(running.waitForOutput(containing: "\"id\":6,"))
      // The two waited for, and one summary: the later counts replaced it in place.
      #expect(waitUntilDisplayed(desktop, 3))
      let result = running.wait(timeout: 30)
      #expect(result.status == 1, "\(result.standardError)")
      let events = result.standardOutput.split(separator: "\n")
      #expect(events.filter { $0.contains("\"event\":\"skipped\"") }.count == 4, "\(events)")
      #expect(events.filter { $0.contains("\"event\":\"shown\"") }.count == 2, "\(events)")
      try desktop.dunstctl("close-all")
      let history = try desktop.dunstctl("history")
      #expect(history.contains("4 messages skipped"), "\(history)")
    }

    @Test func aSignalDuringTheWaitClosesTheNotificationAndEndsWithItsStatus() throws {
      let desktop = try NotifyStack()
      let (home, folder) = privateHome()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let running = try Running(
        Command.announce,
        ["--notify-only", "--json", "--priority", "important", "--timeout", "30", "Long wait"],
        environment: environment(desktop, home: home))
      #expect(waitUntilDisplayed(desktop, 1))
      running.send(SIGINT)
      let result = running.wait(timeout: 30)
      #expect(result.status == 130, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"event\":\"closed\""), "\(result.standardOutput)")
      #expect(waitUntilDisplayed(desktop, 0))
    }

    @Test func doctorNamesTheServerAndItsCapabilitiesAndNoServerIsAFailingCheck() throws {
      let desktop = try NotifyStack()
      let (home, folder) = privateHome()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let only = environment(desktop, home: home, ["ANNOUNCE_NOTIFY": "only"])
      let doctor = try Command.run(Command.announce, ["doctor", "--json"], environment: only, timeout: 30)
      let line = try #require(
        doctor.standardOutput.split(separator: "\n").first { $0.contains("\"check\":\"notification\"") },
        "\(doctor.standardOutput)")
      #expect(line.contains("\"server\":\"dunst\"") && line.contains("\"actions\""), "\(line)")
      #expect(line.contains("\"finding\":\"fine\""), "\(line)")
      let empty = try NotifyStack(server: false)
      let missing = try Command.run(
        Command.announce, ["doctor"],
        environment: environment(empty, home: home, ["ANNOUNCE_NOTIFY": "only"]),
        timeout: 30)
      #expect(missing.status == 69, "\(missing.standardOutput)")
      let said = missing.standardOutput.split(separator: "\n").filter {
        $0.contains("no notification server runs")
      }
      #expect(said.count == 1, "\(missing.standardOutput)")
    }

    @Test func theBashHookWithAnnounceNotifyOnlyNeedsNoSpeechDispatcher() throws {
      let desktop = try NotifyStack()
      var environment = stack.clientEnvironment(desktop.environment).filter {
        !ShellHooks.hookVariables.contains($0.key)
      }
      // No speech-dispatcher: the address names a socket nobody listens on.
      environment["SPEECHD_ADDRESS"] = "unix_socket:" + desktop.directory + "/no-speechd.sock"
      environment["ANNOUNCE_NOTIFY"] = "only"
      environment["ANNOUNCE_MIN_SECONDS"] = "1"
      let session = try ShellSession(
        .bash, setup: ["eval \"$(\"$ANNOUNCE\" init bash)\""], environment: environment)
      defer { session.close() }
      #expect(session.waitUntilReady(), "bash showed no prompt: \(session.screen())")
      #expect(session.waitForPrompt { session.type("sleep 1.2") })
      let notified = session.wait(timeout: 20) {
        session.logEntries().contains { $0["channel"] as? String == "notification" }
      }
      #expect(notified, "nothing was logged: \(session.logEntries())")
      let entries = session.logEntries()
      #expect(!entries.contains { $0["channel"] as? String == "speech" }, "\(entries)")
      let history = (try? desktop.dunstctl("history")) ?? ""
      let displayed = (try? desktop.dunstctl("count", "displayed")) ?? "0"
      #expect(history.contains("sleep 1.2 finished") || displayed == "1", "\(history)")
    }
  }
}
