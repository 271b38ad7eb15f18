import Foundation
import AnnouncerCore
import Testing

@testable import announce
import AnnouncerTesting

/// The checks of `announce doctor` whose findings need no daemon.
@Suite struct DoctorCheckTests {
  // MARK: Address

  @Test func theAddressNamesWhereItCameFrom() {
    let runtime = UnusedPath.folder()
    let socket = UnusedPath.file("s.sock")
    let environment = ["XDG_RUNTIME_DIR": runtime]
    let given = AddressCheck(explicit: "inet_socket:example.org:7000", environment: environment).run()
    #expect(
      given.line.sentence
        == "announce looks for speech-dispatcher at example.org port 7000, given with --address.")
    #expect(given.address == .inetSocket(host: "example.org", port: 7000))
    let fromVariable = AddressCheck(
      explicit: nil, environment: environment.merging(["SPEECHD_ADDRESS": "unix_socket:" + socket]) { $1 }
    ).run()
    #expect(fromVariable.line.sentence.hasSuffix("the unix socket \(socket), from SPEECHD_ADDRESS."))
    let byDefault = AddressCheck(explicit: nil, environment: environment).run()
    #expect(
      byDefault.line.sentence.contains(
        "\(runtime)/speech-dispatcher/speechd.sock, the default for this user"))
    #expect(byDefault.line.finding == .fine)
  }

  @Test func anSSHSessionWithoutAForwardFallsBackToTheDefaultAndSaysSo() {
    let runtime = UnusedPath.folder()
    let environment = ["XDG_RUNTIME_DIR": runtime, "SSH_CONNECTION": "1 2 3 4"]
    let result = AddressCheck(explicit: nil, environment: environment).run()
    #expect(
      result.address
        == .unixSocket(path: "\(runtime)/speech-dispatcher/speechd.sock", isUserDefault: true))
    #expect(
      result.line.sentence.contains("forwards no socket to \(runtime)/announce-speechd.sock"))
  }

  @Test func aBadSPEECHD_ADDRESSMeansSpeechCannotBeHeard() {
    let result = AddressCheck(explicit: nil, environment: ["SPEECHD_ADDRESS": "carrier-pigeon"]).run()
    #expect(result.address == nil)
    #expect(result.line.finding == .speechUnavailable)
    #expect(
      result.line.sentence.contains("SPEECHD_ADDRESS \"carrier-pigeon\" is not a speech-dispatcher address"))
  }

  // MARK: Spoken test

  @Test func everyOutcomeOfTheTestSentenceHasItsFinding() {
    let check = SpokenTestCheck(explicit: nil, environment: [:], soundServer: { .pipeWire })
    #expect(
      check.line(for: .spoken(attempts: 1, duration: .seconds(1)), took: .milliseconds(1_240)).finding
        == .fine)
    #expect(
      check.line(for: .spoken(attempts: 1, duration: .seconds(1)), took: .milliseconds(1_240)).sentence
        == "The test sentence was played to the end, in 1.2 seconds.")
    let interrupted = check.line(for: .gaveUp(.interruptedOutOfTime), took: .seconds(3))
    #expect(interrupted.finding == .fine)
    #expect(interrupted.sentence.contains("something else, such as a screen reader, is speaking"))
    let stalled = check.line(for: .gaveUp(.stalled), took: .seconds(3))
    #expect(stalled.finding == .speechUnavailable)
    #expect(stalled.sentence.contains("check PipeWire"))
    for reason in [GiveUpReason.notAnswering, .disconnected, .cancelled, .dropped] {
      #expect(check.line(for: .gaveUp(reason), took: .seconds(6)).finding == .speechUnavailable)
    }
  }

  @Test func theSoundServerIsFoundFromWhatRuns() {
    #expect(SoundServer.running(among: ["bash", "pipewire", "wireplumber", "pipewire-pulse"]) == .pipeWire)
    #expect(SoundServer.running(among: ["bash", "pulseaudio"]) == .pulseAudio)
    #expect(SoundServer.running(among: ["bash", "speech-dispatcher"]) == .none)
    #expect(SoundServer.none.fix.contains("neither PipeWire nor PulseAudio"))
  }

  // MARK: Shell hook

  @Test func theHookInTheShellThatRanDoctorIsActiveWithItsSettings() {
    let check = ShellHookCheck(
      environment: ["ANNOUNCE_SHELL_HOOK": "bash\t4242\t5\tmake ninja"], parent: 4242,
      isAncestor: { _ in false })
    let line = check.run()
    #expect(line.finding == .fine)
    #expect(
      line.sentence
        == "The bash hook is active in this shell: it announces commands that run 5 seconds or longer, and ignores make and ninja."
    )
  }

  @Test func theHookWithItsDefaultsNamesTheDefaultList() {
    let line = ShellHookCheck(environment: ["ANNOUNCE_SHELL_HOOK": "zsh\t7\t\t"], parent: 7).run()
    #expect(line.sentence.contains("10 seconds or longer"))
    #expect(line.sentence.contains("ignores the 23 programs of its default list"))
  }

  @Test func aHookOfAnOuterShellIsNotActiveHere() {
    let line = ShellHookCheck(
      environment: ["ANNOUNCE_SHELL_HOOK": "bash\t100\t10\t", "SHELL": "/usr/bin/zsh"], parent: 200,
      isAncestor: { $0 == 100 }
    ).run()
    #expect(line.finding == .notInUse)
    #expect(line.sentence.contains("an outer bash, process 100, but not in the shell that ran doctor"))
    #expect(line.sentence.contains("~/.zshrc"))
    // The man page's facts: a hook found elsewhere still has its shell, process and settings.
    let names = line.facts.map(\.0)
    #expect(names == ["active", "outer", "shell", "pid", "minSeconds", "ignore"])
  }

  @Test func noHookIsInformationOnly() {
    for value in [nil, "", "tcsh\t1\t\t", "bash\tnot-a-pid"] {
      var environment: [String: String] = [:]
      environment["ANNOUNCE_SHELL_HOOK"] = value
      let line = ShellHookCheck(environment: environment, parent: 1).run()
      #expect(line.finding == .notInUse, "\(value ?? "unset")")
      #expect(line.sentence.hasPrefix("No announce shell hook is active in this shell"))
    }
  }

  /// The hook's export and the check's parsing agree: the line of each shell's script.
  @Test(arguments: ShellInit.Shell.allCases)
  func everyShellsHookExportsTheVariableDoctorReads(shell: ShellInit.Shell) {
    let script = ShellHook.script(for: shell, announce: "/usr/bin/announce")
    #expect(script.contains(ShellHookCheck.variable))
  }

  // MARK: tmux

  @Test func tmuxHooksAreFoundInShowHooksOutput() {
    let hooks = """
      after-new-window[0] display-message hi
      alert-bell[47] if-shell -F "#{window_active_clients}" "" { run-shell -b "/usr/bin/announce tmux-alert bell --server 1 --window @1" }
      alert-activity[47] {
        if-shell -F "#{window_active_clients}" "" { run-shell -b "/usr/bin/announce tmux-alert activity" }
      }
      alert-silence[3] display-message quiet
      """
    #expect(TmuxCheck.alertsSpoken(in: hooks) == ["bell", "activity"])
    #expect(TmuxCheck.alertsSpoken(in: "alert-bell[0] display-message ding\n").isEmpty)
    let tmux = UnusedPath.file("default")
    #expect(TmuxCheck.socket(environment: ["TMUX": "\(tmux),123,0"]) == tmux)
    #expect(TmuxCheck.socket(environment: [:]) == nil)
  }

  @Test func aTmuxWithoutOurHooksIsInformationAndOneThatDoesNotAnswerToo() {
    let socket = UnusedPath.file("default")
    let none = TmuxCheck(socket: socket, tmux: { _ in "alert-bell[0] display-message ding\n" }).run()
    #expect(none.finding == .notInUse)
    #expect(none.sentence.contains("announce init tmux >> ~/.tmux.conf"))
    let silent = TmuxCheck(socket: socket, tmux: { _ in nil }).run()
    #expect(silent.finding == .notInUse)
  }

  // MARK: Outcome log

  @Test func aStateDirectoryThatIsAFileMakesTheLogUnwritable() throws {
    let file = NSTemporaryDirectory() + "announce-doctor-test-\(getpid())-\(UUID().uuidString)"
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let line = OutcomeLogCheck(environment: ["XDG_STATE_HOME": file]).run()
    #expect(line.finding == .somethingElseBroken)
    #expect(line.sentence.contains("cannot be written (Not a directory)"))
    let off = OutcomeLogCheck(environment: ["XDG_STATE_HOME": file, "ANNOUNCE_HISTORY": "off"]).run()
    #expect(off.finding == .notInUse)
  }

  /// A relative HOME put the log's directories and lock file into the directory doctor ran
  /// in, and doctor called the log writable (issue #39 item 6); it is refused as a run
  /// refuses it, in the same sentence.
  @Test func aRelativeHomeIsRefusedAsARunRefusesItAndNothingIsMade() throws {
    let home = "announce-relative-home-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: home) }
    let environment = ["HOME": home]
    let line = OutcomeLogCheck(environment: environment).run()
    #expect(line.finding == .somethingElseBroken)
    #expect(line.sentence == OutcomeLog.placeProblem(environment: environment))
    #expect(line.sentence.hasPrefix("HOME=\(home) is not an absolute path"))
    #expect(!FileManager.default.fileExists(atPath: home), "doctor made \(home) in the current directory")
    // An invalid ANNOUNCE_HISTORY is named as a run names it, too.
    let invalid = OutcomeLogCheck(environment: ["HOME": UnusedPath.folder(), "ANNOUNCE_HISTORY": "maybe"])
      .run()
    #expect(invalid.finding == .somethingElseBroken)
    #expect(invalid.sentence.hasPrefix("ANNOUNCE_HISTORY=maybe is not on or off"), "\(invalid.sentence)")
  }
}
