import Foundation
import Testing
import AnnouncerTesting

extension SpeakingTests {
  /// `announce --braille` and `--braille-only` themselves, against the real brltty of the
  /// release under test (6.5 for `TESTSTACK_RELEASE=12`, 6.7 for 13) with its Virtual
  /// display, and a stand-in screen reader holding the display on the same session, as
  /// Orca does. Nested in ``SpeakingTests`` so that the recordings hold only their speech.
  @Suite struct BrailleAnnounceTests: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    static let readerLine = "screen reader line"

    /// A brltty of its own with the screen reader stand-in showing its line.
    func brlttyWithScreenReader() throws -> PrivateBrltty {
      let brltty = try PrivateBrltty()
      try brltty.startScreenReader(showing: Self.readerLine)
      return brltty
    }

    /// The environment announce runs with: the speech stack's, with the BrlAPI host of
    /// `brltty` and the screen reader's session (tty 7), and a history of its own.
    func environment(_ brltty: PrivateBrltty, _ extra: [String: String] = [:]) -> [String: String] {
      brltty.stack.clientEnvironment(stack.clientEnvironment(extra))
    }

    func start(
      _ arguments: [String], _ brltty: PrivateBrltty, _ extra: [String: String] = [:]
    ) throws -> Running {
      try Running(Command.announce, arguments, environment: environment(brltty, extra))
    }

    /// The frames from the first one showing `text` on, up to the screen reader's line.
    func held(_ text: String, in brltty: PrivateBrltty) throws -> Duration {
      let shown = try #require(brltty.display.timeline.first { $0.text.contains(text) })
      let back = try #require(
        brltty.display.timeline.first { $0.time > shown.time && $0.text == Self.readerLine })
      return back.time - shown.time
    }

    @Test func withSpeechTheTextIsShownWhileSpokenHeldTheFlashTimeAndTheLineComesBack() throws {
      let brltty = try brlttyWithScreenReader()
      let recording = try stack.record()
      let running = try start(["--braille", "--braille-flash", "3", "--json", "Build failed"], brltty)
      #expect(running.waitForOutput(containing: "\"event\":\"begin\""))
      #expect(brltty.waitUntilShown("Build failed"))
      let result = running.wait(timeout: 30)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"event\":\"spoken\""))
      #expect(recording.stop() > 0.3, "the speech was recorded")
      #expect(brltty.waitUntilShown(Self.readerLine, within: 1))
      #expect(try held("Build failed", in: brltty) >= .milliseconds(2900))
      // It ran at least the flash time: announce waits for the display to be given back.
      #expect(result.seconds >= 2.9)
    }

    @Test func aLongTextIsPannedAndEveryWordReachesTheDisplay() throws {
      let brltty = try brlttyWithScreenReader()
      let text =
        "The nightly build of announce failed in the integration stage with three errors in the braille tests on Debian thirteen"
      let result = try Command.run(
        Command.announce, ["--braille-only", "--braille-pace", "1000", "--braille-flash", "0", text],
        environment: environment(brltty), timeout: 30)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(brltty.waitUntilShown(Self.readerLine, within: 1))
      let shown = brltty.shown.joined(separator: " ")
      for word in text.split(separator: " ") {
        #expect(shown.contains(word), "\(word) never reached the display: \(brltty.shown)")
      }
      let windows = brltty.shown.filter { $0 != Self.readerLine && $0 != "no screen" }
      #expect(windows.count >= 3, "\(windows)")
    }

    @Test func brailleOnlyWithARoutingKeyIsAcknowledgedInJSONAndTheHistory() throws {
      let brltty = try brlttyWithScreenReader()
      let state = NSTemporaryDirectory() + "announce-braille-\(getpid())-\(UUID().uuidString.prefix(6))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      let running = try start(
        ["--braille-only", "--braille-flash", "30", "--json", "Tests passed"], brltty,
        ["XDG_STATE_HOME": state])
      #expect(brltty.waitUntilShown("Tests passed"))
      brltty.press("route 3")
      let result = running.wait(timeout: 10)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.seconds < 10)
      #expect(result.standardOutput.contains("\"event\":\"acknowledged\""), "\(result.standardOutput)")
      #expect(result.standardOutput.contains("\"key\":\"route 3\""), "\(result.standardOutput)")
      #expect(brltty.waitUntilShown(Self.readerLine, within: 1))
      let history = try Command.run(
        Command.announce, ["history", "--json", "-n", "1"],
        environment: environment(brltty, ["XDG_STATE_HOME": state]))
      #expect(history.standardOutput.contains("\"acknowledged\":\"route 3\""), "\(history.standardOutput)")
    }

    /// Issue #37 item 8: the display's Home key is named as brltty names it; it was `command 29`.
    @Test func theHomeKeyIsNamedAsBrlttyNamesIt() throws {
      let brltty = try brlttyWithScreenReader()
      let running = try start(["--braille-only", "--braille-flash", "30", "--json", "Tests passed"], brltty)
      #expect(brltty.waitUntilShown("Tests passed"))
      brltty.press("home")
      let result = running.wait(timeout: 10)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"key\":\"home\""), "\(result.standardOutput)")
    }

    @Test func withSpeechAKeyPressedAfterTheSpeechEndedIsInTheHistory() throws {
      let brltty = try brlttyWithScreenReader()
      let state = NSTemporaryDirectory() + "announce-braille-\(getpid())-\(UUID().uuidString.prefix(6))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      let running = try start(
        ["--braille", "--braille-flash", "30", "--json", "Tests passed"], brltty, ["XDG_STATE_HOME": state])
      // The speech has ended and the message is still on the display when the key comes.
      #expect(running.waitForOutput(containing: "\"event\":\"spoken\""))
      #expect(brltty.waitUntilShown("Tests passed"))
      brltty.press("route 3")
      let result = running.wait(timeout: 10)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"event\":\"acknowledged\""), "\(result.standardOutput)")
      // Two records, each channel's own: the speech's, and the flash's with the key.
      let history = try Command.run(
        Command.announce, ["history", "--json", "-n", "2"],
        environment: environment(brltty, ["XDG_STATE_HOME": state]))
      let records = history.standardOutput.split(separator: "\n")
      #expect(records.count == 2, "\(history.standardOutput)")
      #expect(
        records.first { $0.contains("\"event\":\"shown\"") }?.contains("\"acknowledged\":\"route 3\"")
          == true,
        "\(history.standardOutput)")
      #expect(history.standardOutput.contains("\"event\":\"spoken\""), "\(history.standardOutput)")
    }

    /// Issue #37: no record waits for a flash. The speech's record is in the history while
    /// its flash is still on the display, and brltty killed mid-flash is recorded at once,
    /// as braille's own `display-lost`, while the run goes on; a SIGKILL then loses nothing.
    @Test func brlttyKilledMidFlashIsRecordedAtOnceAndASIGKILLLosesNothing() throws {
      let brltty = try brlttyWithScreenReader()
      let state = NSTemporaryDirectory() + "announce-braille-\(getpid())-\(UUID().uuidString.prefix(6))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      let environment = environment(brltty, ["XDG_STATE_HOME": state])
      let running = try Running(
        Command.announce, ["--braille", "--braille-flash", "30", "--json"], environment: environment,
        keepStandardInputOpen: true)
      defer { running.send(SIGKILL) }
      running.write("Deploy finished\n")
      #expect(running.waitForOutput(containing: "\"event\":\"spoken\""))
      #expect(brltty.waitUntilShown("Deploy finished"))
      func history() -> String {
        (try? Command.run(Command.announce, ["history", "--json"], environment: environment))?.standardOutput
          ?? ""
      }
      let spoken = eventually { history().contains("\"event\":\"spoken\"") ? true : nil }
      #expect(spoken == true, "the speech's record waited for its flash: \(history())")
      brltty.signal(SIGKILL)
      let lost = eventually { history().contains("\"reason\":\"display-lost\"") ? true : nil }
      #expect(lost == true, "no record of the lost display while the run goes on: \(history())")
      #expect(running.waitForOutput(containing: "\"event\":\"not-shown\""))
      running.send(SIGKILL)
      _ = running.wait(timeout: 10)
      let after = history()
      #expect(after.contains("\"event\":\"not-shown\"") && after.contains("\"withSpeech\":true"), "\(after)")
      #expect(!after.contains("went away"), "\(after)")
    }

    @Test(arguments: [
      (SIGHUP, Int32(129)), (SIGINT, Int32(130)), (SIGQUIT, Int32(131)), (SIGTERM, Int32(143)),
    ])
    func aSignalDuringAFlashGivesTheLineBackAndExitsWithItsStatus(signal: Int32, status: Int32) throws {
      let brltty = try brlttyWithScreenReader()
      let running = try start(["--braille-only", "--braille-flash", "30", "Deploy finished"], brltty)
      #expect(brltty.waitUntilShown("Deploy finished"))
      running.send(signal)
      let result = running.wait(timeout: 10)
      #expect(result.status == status, "\(result.standardError)")
      #expect(brltty.waitUntilShown(Self.readerLine, within: 1), "\(brltty.shown)")
    }

    /// Issue #37 item 1: what speech's flood control drops is not flashed, 5 s a line,
    /// after the speech ended (the run took 100 s), and every line has its record.
    @Test func aFloodWithBrailleEndsWithItsSpeechAndEveryLineIsInTheHistory() throws {
      let brltty = try brlttyWithScreenReader()
      let state = NSTemporaryDirectory() + "announce-braille-\(getpid())-\(UUID().uuidString.prefix(6))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      let lines = (1...20).map { "flood line \($0)" }
      let result = try Command.run(
        Command.announce, ["--braille", "--max-queue", "2"],
        environment: environment(brltty, ["XDG_STATE_HOME": state]),
        input: lines.joined(separator: "\n") + "\n", timeout: 120)
      #expect(result.seconds < 30, "\(result.standardError)")
      #expect(result.status == 1, "\(result.standardError)")
      #expect(!brltty.shown.contains { $0.contains("flood line 10") }, "\(brltty.shown)")
      // What was left out is summed up on the display as the speech says it.
      #expect(brltty.shown.contains { $0.contains("messages skipped") }, "\(brltty.shown)")
      let history = try Command.run(
        Command.announce, ["history", "--json", "-n", "100"],
        environment: environment(brltty, ["XDG_STATE_HOME": state]))
      for line in lines {
        #expect(history.standardOutput.contains("\"\(line)\""), "\(line) has no record")
      }
    }

    /// `--timeout 0` is speech's "no retry": it made every braille-only flash fail after 20 ms.
    @Test func timeoutZeroNeverShortensABrailleOnlyFlash() throws {
      let brltty = try brlttyWithScreenReader()
      let result = try Command.run(
        Command.announce, ["--braille-only", "--timeout", "0", "--braille-flash", "2", "Saved"],
        environment: environment(brltty), timeout: 30)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.seconds >= 1.9)
      #expect(try held("Saved", in: brltty) >= .milliseconds(1900))
    }

    /// Issue #37 item 3: a hook's or an alert's text shown with `--braille-only` while
    /// brltty is away was gone for good; it is now listed as missed, for `replay`.
    @Test func brailleOnlyWithNoBrlttyListsTheTextAsMissed() throws {
      let state = NSTemporaryDirectory() + "announce-braille-\(getpid())-\(UUID().uuidString.prefix(6))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      var environment = stack.clientEnvironment(["XDG_STATE_HOME": state])
      environment["BRLAPI_HOST"] = ":announce-none-\(getpid())"
      environment["BRLAPI_AUTH"] = "none"
      let alone = try Command.run(
        Command.announce, ["--braille-only", "Deploy finished"], environment: environment)
      #expect(alone.status == 69, "\(alone.standardError)")
      let missed = try Command.run(Command.announce, ["history", "--missed"], environment: environment)
      #expect(missed.standardOutput.contains("Deploy finished"), "\(missed.standardOutput)")
      // Braille's own reason, never speech-dispatcher's.
      #expect(missed.standardOutput.contains("not shown (no braille display)"), "\(missed.standardOutput)")
      #expect(!missed.standardOutput.contains("speech-dispatcher"), "\(missed.standardOutput)")
    }

    /// Issue #37: braille alone needs no speech-dispatcher for the shell hook, tmux alerts
    /// or replay. With no brltty, the hook's text is missed with braille's own reason;
    /// with brltty back and still no daemon, an alert is shown, and replay shows the hook's
    /// text, after which nothing is missed.
    @Test func theHookAlertsAndReplayUnderBrailleOnlyNeedNoDaemon() throws {
      let state = NSTemporaryDirectory() + "announce-braille-\(getpid())-\(UUID().uuidString.prefix(6))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      let alone = [
        "XDG_STATE_HOME": state, "ANNOUNCE_BRAILLE": "only",
        "SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("speechd.sock"),
      ]
      var away = stack.clientEnvironment(alone)
      away["BRLAPI_HOST"] = ":announce-none-\(getpid())"
      away["BRLAPI_AUTH"] = "none"
      let hook = try Command.run(
        Command.announce,
        ["hook-finished", "--status", "2", "--milliseconds", "60000", "--", "make", "test"],
        environment: away)
      #expect(hook.status == 69, "\(hook.standardError)")
      let missed = try Command.run(Command.announce, ["history", "--missed"], environment: away)
      #expect(missed.standardOutput.contains("not shown (no braille display): "), "\(missed.standardOutput)")
      #expect(missed.standardOutput.contains("make test"), "\(missed.standardOutput)")

      let brltty = try brlttyWithScreenReader()
      let environment = environment(brltty, alone)
      let alert = try Command.run(
        Command.announce, ["tmux-alert", "bell", "--server=4242", "--window=@3", "--index=3", "--", "build"],
        environment: environment)
      #expect(alert.status == 0, "\(alert.standardError)")
      #expect(brltty.shown.contains { $0.contains("Bell in window 3") }, "\(brltty.shown)")
      let replay = try Command.run(Command.announce, ["replay"], environment: environment)
      #expect(replay.status == 0, "\(replay.standardError)")
      #expect(brltty.shown.contains { $0.contains("make test") }, "\(brltty.shown)")
      let after = try Command.run(Command.announce, ["history", "--missed"], environment: environment)
      #expect(after.standardOutput == "No announcement was missed.\n", "\(after.standardOutput)")
    }

    /// Issue #37 item 2: braille alone needs no speech-dispatcher, so `--when-done` waits
    /// for the process and then shows the text (it exited 69 at once, waiting for nothing).
    @Test func brailleOnlyWhenDoneWithNoDaemonWaitsThenShowsTheText() throws {
      let brltty = try brlttyWithScreenReader()
      let sleeper = try Sleeper(seconds: 2)
      let started = Date()
      let running = try start(
        ["--braille-only", "--braille-flash", "1", "--when-done", "\(sleeper.pid)", "Backup finished"],
        brltty,
        ["SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("speechd.sock")])
      #expect(brltty.waitUntilShown("Backup finished", within: 10))
      #expect(Date().timeIntervalSince(started) >= 1.9, "shown before the process ended")
      sleeper.waitUntilEnded()
      let result = running.wait(timeout: 20)
      #expect(result.status == 0, "\(result.standardError)")
    }

    /// Issue #37 item 4: `--braille-only --detach` needs no speech-dispatcher either. It
    /// returns at once, and the background half shows the text and records it as shown
    /// (it failed as "speech-dispatcher unreachable", showing nothing).
    @Test func brailleOnlyDetachWithNoDaemonShowsTheTextAndRecordsIt() throws {
      let state = NSTemporaryDirectory() + "announce-braille-\(getpid())-\(UUID().uuidString.prefix(6))"
      defer { try? FileManager.default.removeItem(atPath: state) }
      let brltty = try brlttyWithScreenReader()
      let environment = environment(
        brltty,
        ["XDG_STATE_HOME": state, "SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("speechd.sock")])
      let result = try Command.run(
        Command.announce, ["--braille-only", "--braille-flash", "1", "--detach", "Upload finished"],
        environment: environment)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty, "\(result.standardError)")
      #expect(brltty.waitUntilShown("Upload finished", within: 10), "\(brltty.shown)")
      var listed = ""
      for _ in 0..<100 {
        listed = try Command.run(Command.announce, ["history"], environment: environment).standardOutput
        if listed.contains("Upload finished") { break }
        // The record is written when the flash ends, 1 s after it was shown.
        usleep(100_000)
      }
      #expect(listed.contains("shown on the braille display"), "\(listed)")
      #expect(listed.contains("Upload finished"), "\(listed)")
      let missed = try Command.run(Command.announce, ["history", "--missed"], environment: environment)
      #expect(missed.standardOutput == "No announcement was missed.\n", "\(missed.standardOutput)")
    }

    /// Issue #37 item 5: on Control-Z the display goes back to the screen reader before the
    /// process stops, and the flash still due is shown again when it continues.
    @Test func controlZGivesTheDisplayBackAndContinuingShowsTheFlashAgain() throws {
      let brltty = try brlttyWithScreenReader()
      let running = try start(["--braille-only", "--braille-flash", "30", "Deploy finished"], brltty)
      #expect(brltty.waitUntilShown("Deploy finished"))
      running.send(SIGTSTP)
      #expect(brltty.waitUntilShown(Self.readerLine, within: 2), "\(brltty.shown)")
      let stopped = eventually {
        let stat = (try? String(contentsOfFile: "/proc/\(running.pid)/stat", encoding: .utf8)) ?? ""
        return stat.contains(") T ") ? true : nil
      }
      #expect(stopped == true, "the process did not stop")
      running.send(SIGCONT)
      #expect(brltty.waitUntilShown("Deploy finished", within: 2), "\(brltty.shown)")
      running.send(SIGTERM)
      let result = running.wait(timeout: 10)
      #expect(result.status == 143, "\(result.standardError)")
    }

    @Test func withNoBrlttyBrailleSpeaksWithOneLineAndBrailleOnlyExits69NamingTheHost() throws {
      var environment = stack.clientEnvironment()
      environment["BRLAPI_HOST"] = ":announce-none-\(getpid())"
      environment["BRLAPI_AUTH"] = "none"
      let withSpeech = try Command.run(Command.announce, ["--braille", "Saved"], environment: environment)
      #expect(withSpeech.status == 0, "\(withSpeech.standardError)")
      let lines = withSpeech.standardError.split(separator: "\n")
      #expect(lines.count == 1 && lines[0].contains(":announce-none-"), "\(lines)")
      let alone = try Command.run(Command.announce, ["--braille-only", "Saved"], environment: environment)
      #expect(alone.status == 69)
      let sentence = alone.standardError.split(separator: "\n")
      #expect(sentence.count == 1 && sentence[0].contains(":announce-none-"), "\(sentence)")
      #expect(sentence.first?.contains("BRLAPI_HOST") == true)
    }

    @Test func twoProcessesAtOnceAreShownOneAfterTheOther() throws {
      let brltty = try brlttyWithScreenReader()
      let arguments = ["--braille-only", "--braille-flash", "1"]
      let first = try start(arguments + ["First message"], brltty)
      #expect(brltty.waitUntilShown("First message"))
      let second = try start(arguments + ["Second message"], brltty)
      #expect(first.wait(timeout: 15).status == 0)
      #expect(second.wait(timeout: 15).status == 0)
      #expect(brltty.waitUntilShown(Self.readerLine, within: 1))
      let shown = brltty.shown
      let firstAt = try #require(shown.firstIndex(of: "First message"))
      let secondAt = try #require(shown.firstIndex(of: "Second message"))
      #expect(firstAt < secondAt)
      // The first is never shown again once the second took its turn.
      #expect(!shown[secondAt...].contains("First message"), "\(shown)")
    }

    /// Issue #37 item 4 of What: with braille alone, doctor needs no speech-dispatcher and
    /// speaks no test sentence; a working display is all it takes (it exited 69).
    @Test func doctorWithBrailleAloneAndNoDaemonChecksTheDisplayOnly() throws {
      let brltty = try brlttyWithScreenReader()
      let result = try Command.run(
        Command.announce, ["doctor", "--json"],
        environment: environment(
          brltty,
          ["ANNOUNCE_BRAILLE": "only", "SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("speechd.sock")]),
        timeout: 60)
      #expect(result.status == 0, "\(result.standardOutput)")
      let speech = result.standardOutput.split(separator: "\n").first { $0.contains("\"check\":\"speech\"") }
      #expect(speech?.contains("ANNOUNCE_BRAILLE=only") == true, "\(result.standardOutput)")
      let braille = result.standardOutput.split(separator: "\n").first {
        $0.contains("\"check\":\"braille\"")
      }
      #expect(braille?.contains("\"finding\":\"fine\"") == true, "\(result.standardOutput)")
    }

    @Test func doctorReportsTheDisplayAndItsCellsOnlyWhenBrailleIsAskedFor() throws {
      let brltty = try brlttyWithScreenReader()
      let asked = try Command.run(
        Command.announce, ["doctor", "--json"],
        environment: environment(brltty, ["ANNOUNCE_BRAILLE": "only"]),
        timeout: 60)
      let line = asked.standardOutput.split(separator: "\n").first { $0.contains("\"check\":\"braille\"") }
      #expect(line?.contains("\"finding\":\"fine\"") == true, "\(asked.standardOutput)")
      #expect(line?.contains("\"cells\":40") == true, "\(asked.standardOutput)")
      // Nothing was written: the screen reader's line stayed.
      #expect(brltty.display.text == Self.readerLine)
      let notAsked = try Command.run(
        Command.announce, ["doctor", "--json"], environment: environment(brltty), timeout: 60)
      #expect(!notAsked.standardOutput.contains("\"check\":\"braille\""))
      var missing = environment(brltty, ["ANNOUNCE_BRAILLE": "only"])
      missing["BRLAPI_HOST"] = ":announce-none-\(getpid())"
      let none = try Command.run(Command.announce, ["doctor"], environment: missing, timeout: 60)
      #expect(none.status == 69, "\(none.standardOutput)")
    }

    /// Issue #38: the braille line follows the locale, and `--json` keeps it in English.
    @Test func doctorSaysTheDisplayInTheLocalesLanguageAndKeepsItsJSONEnglish() throws {
      let brltty = try brlttyWithScreenReader()
      let german = try TestLanguages.environment(
        environment(brltty, ["ANNOUNCE_BRAILLE": "only"]), locale: "de_DE.UTF-8")
      let printed = try Command.run(Command.announce, ["doctor"], environment: german, timeout: 60)
      let line = printed.standardOutput.split(separator: "\n").first { $0.hasPrefix("Eine Braillezeile") }
      #expect(
        line?.hasPrefix("Eine Braillezeile mit 40 Modulen antwortet unter ") == true
          && line?.hasSuffix(", also werden Ansagen darauf gezeigt.") == true,
        "\(printed.standardOutput)")
      let json = try Command.run(Command.announce, ["doctor", "--json"], environment: german, timeout: 60)
      let braille = json.standardOutput.split(separator: "\n").first { $0.contains("\"check\":\"braille\"") }
      #expect(
        braille?.contains("\"text\":\"A braille display of 40 cells answers at ") == true,
        "\(json.standardOutput)")
    }

    @Test func aScreenReaderThatWritesMeanwhileGetsItsNewestTextBack() throws {
      let brltty = try brlttyWithScreenReader()
      let running = try start(["--braille-only", "--braille-flash", "2", "Upload complete"], brltty)
      #expect(brltty.waitUntilShown("Upload complete"))
      brltty.screenReaderWrites("the newest line")
      #expect(!brltty.waitUntilShown("the newest line", within: 0.5))
      #expect(running.wait(timeout: 15).status == 0)
      #expect(brltty.waitUntilShown("the newest line", within: 1))
    }
  }
}
