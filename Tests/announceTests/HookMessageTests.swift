import Foundation
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// The words of the shell hook: durations, templates, the ignore list, prefixes, shortening.
@Suite struct HookMessageTests {
  func sentence(
    _ line: String, status: Int32 = 0, seconds: Double = 65, environment: [String: String] = [:]
  ) -> String? {
    HookMessage.sentence(
      for: FinishedCommand(commandLine: line, status: status, seconds: seconds),
      settings: HookSettings(environment: environment))
  }

  static let durations: [(Double, String)] = [
    (0.2, "less than a second"), (1, "1 second"), (1.4, "1 second"), (12, "12 seconds"),
    (59.4, "59 seconds"), (59.6, "1 minute"), (60, "1 minute"), (65, "1 minute 5 seconds"),
    (125, "2 minutes 5 seconds"), (3600, "1 hour"), (3720, "1 hour 2 minutes"),
    (3749, "1 hour 2 minutes"), (7200, "2 hours"), (86400, "1 day"), (90000, "1 day 1 hour"),
    (3 * 86400 + 5 * 3600 + 10, "3 days 5 hours"),
  ]

  @Test(arguments: durations)
  func durationsReadAsPeopleSayThem(seconds: Double, expected: String) {
    #expect(SpokenDuration.text(seconds: seconds) == expected)
  }

  @Test func successAndFailureUseTheirDefaultSentences() {
    #expect(sentence("make test") == "make test finished after 1 minute 5 seconds")
    #expect(
      sentence("make test", status: 2, seconds: 12) == "make test failed with status 2 after 12 seconds")
  }

  @Test func templatesFromTheEnvironmentFillEveryPlaceholder() {
    let environment = [
      "ANNOUNCE_FORMAT_OK": "Done: {command}, {duration}",
      "ANNOUNCE_FORMAT_FAIL": "{command} broke ({status}) after {duration}",
    ]
    #expect(sentence("cargo build", environment: environment) == "Done: cargo build, 1 minute 5 seconds")
    #expect(
      sentence("cargo build", status: 101, environment: environment)
        == "cargo build broke (101) after 1 minute 5 seconds")
  }

  /// A template is filled in once: a program whose name holds a placeholder, such as
  /// `./{duration}.sh`, is said as typed (the fuzz target hook-format found it filled in again).
  @Test func aProgramNamedWithAPlaceholderIsNotFilledInAgain() {
    #expect(
      sentence("./{duration}.sh", status: 1, seconds: 12)
        == "{duration}.sh failed with status 1 after 12 seconds")
    #expect(
      sentence("{status}", environment: ["ANNOUNCE_FORMAT_OK": "{command} {duration}"])
        == "{status} 1 minute 5 seconds")
  }

  @Test func commandsShorterThanTheThresholdAreNotAnnounced() {
    #expect(sentence("make", seconds: 9.9) == nil)
    #expect(sentence("make", seconds: 10) != nil)
    #expect(sentence("make", seconds: 1.2, environment: ["ANNOUNCE_MIN_SECONDS": "1"]) != nil)
    #expect(sentence("make", seconds: 0.4, environment: ["ANNOUNCE_MIN_SECONDS": "0.5"]) == nil)
    // An invalid threshold counts as unset: the default of 10 seconds applies.
    #expect(sentence("make", seconds: 5, environment: ["ANNOUNCE_MIN_SECONDS": "soon"]) == nil)
    #expect(sentence("make", seconds: 5, environment: ["ANNOUNCE_MIN_SECONDS": ""]) == nil)
  }

  @Test func controlCIsAnnouncedOnlyWhenAskedAndControlZNever() {
    #expect(sentence("make", status: 130) == nil)
    #expect(
      sentence("make", status: 130, environment: ["ANNOUNCE_ON_INTERRUPT": "1"])
        == "make failed with status 130 after 1 minute 5 seconds")
    #expect(sentence("make", status: 148, environment: ["ANNOUNCE_ON_INTERRUPT": "1"]) == nil)
  }

  @Test(arguments: [
    "vim notes.txt", "less log", "git log | less", "sudo vim /etc/hosts", "env TERM=xterm htop",
    "EDITOR=nano nano x", "nice -n 5 top", "/usr/bin/man ls", "\\vim x", "time ssh host",
    "make && vim out", "for f in *.c; do vim $f; done", "sudo -u root -- less /var/log/syslog",
  ])
  func interactiveProgramsAreNotAnnouncedWhereverTheyAreInTheLine(line: String) {
    #expect(sentence(line) == nil)
  }

  @Test func theIgnoreListFromTheEnvironmentReplacesTheDefault() {
    let environment = ["ANNOUNCE_IGNORE": "make  ninja"]
    #expect(sentence("make all", environment: environment) == nil)
    #expect(sentence("ninja", environment: environment) == nil)
    #expect(sentence("vim x", environment: environment) == "vim x finished after 1 minute 5 seconds")
  }

  @Test(arguments: [
    ("make test", "make test"),
    ("make -j8 test", "make"),
    ("./scripts/test --filter x", "test"),
    ("sudo apt-get upgrade -y", "apt-get upgrade"),
    ("sudo -u deploy -E ./deploy.sh production", "deploy.sh production"),
    ("CC=clang CFLAGS='-O2 -g' make all install more", "make all install"),
    ("env -i PATH=/bin make", "make"),
    ("nice -n 10 ionice -c 3 rsync -a src/ dst/", "rsync"),
    ("time cargo build --release", "cargo build"),
    ("timeout 60 pytest tests/unit", "pytest unit"),
    ("timeout -s KILL 60 ./long-job", "long-job"),
    ("cd build && cmake --build .", "cmake"),
    ("make 2>&1 | tee build.log", "make"),
    ("make > out.txt", "make"),
    ("git clone https://example.com/some/very/long/repository/name.git", "git clone"),
    ("echo \"hello world\" 'x y'", "echo hello world x y"),
    ("sleep 1.2", "sleep 1.2"),
    ("sudo -i", "sudo"),
    ("export A=1", "export"),
    ("", ""),
    ("A=1 B=2", ""),
  ])
  func theCommandIsNamedByItsFirstWords(line: String, expected: String) {
    #expect(CommandWords(line).shortName == expected)
  }

  @Test func anUnknownCommandLineIsCalledTheCommand() {
    #expect(sentence("", seconds: 12) == "The command finished after 12 seconds")
    #expect(
      sentence("", seconds: 12, environment: ["ANNOUNCE_FORMAT_OK": "Done: {command}"])
        == "Done: the command")
  }

  @Test func quotesEscapesAndOperatorsSplitTheLineAsTheShellWould() {
    #expect(
      CommandWords("a 'b | c' \"d;e\" f\\ g | h; i && j || k & l (m)").commands == [
        ["a", "b | c", "d;e", "f g"], ["h"], ["i"], ["j"], ["k"], ["l"], ["m"],
      ])
    #expect(CommandWords("make 2>&1 | tee log").programs == ["make", "tee"])
  }
}

/// The shell hook's text, before any shell runs it.
@Suite struct ShellHookTextTests {
  @Test(arguments: ShellInit.Shell.allCases)
  func theHookCallsThisAnnounceByItsQuotedPath(shell: ShellInit.Shell) {
    let script = ShellHook.script(for: shell, announce: "\(testRoot)/opt/it's here/announce")
    let quoted =
      shell == .fish ? "'\(testRoot)/opt/it\\'s here/announce'" : "'\(testRoot)/opt/it'\\''s here/announce'"
    #expect(script.contains(quoted), "\(script)")
    #expect(script.contains("hook-finished"))
  }

  @Test func initIsParsedAndRejectsOtherShells() throws {
    #expect(try ShellInit.parse(["zsh"]).shell == .zsh)
    #expect(throws: (any Error).self) { try ShellInit.parse(["tcsh"]) }
  }
}

/// The sound icons that tell success from failure before the sentence.
@Suite struct HookIconTests {
  @Test func eachOutcomeHasItsOwnIconAndNoneByDefault() {
    let none = HookSettings(environment: [:])
    #expect(none.icon(forStatus: 0) == nil && none.icon(forStatus: 2) == nil)
    let both = HookSettings(environment: ["ANNOUNCE_ICON_OK": "message", "ANNOUNCE_ICON_FAIL": "prompt"])
    #expect(both.icon(forStatus: 0) == "message")
    #expect(both.icon(forStatus: 2) == "prompt")
    #expect(both.icon(forStatus: 130) == "prompt")
  }

  @Test(arguments: ["two words", "line\nbreak", "\"quoted\""])
  func anIconNameThatCouldCarryCommandsCountsAsUnset(name: String) {
    #expect(HookSettings(environment: ["ANNOUNCE_ICON_FAIL": name]).failureIcon == nil)
  }

  @Test(arguments: ShellInit.Shell.allCases)
  func theHookHandsTheIconVariablesOnByName(shell: ShellInit.Shell) {
    let script = ShellHook.script(for: shell, announce: "/usr/bin/announce")
    #expect(script.contains("ANNOUNCE_ICON_OK="), "\(script)")
    #expect(script.contains("ANNOUNCE_ICON_FAIL="))
  }
}

/// `announce init ssh HOST`.
@Suite struct SSHInitTests {
  @Test func theLinesForwardTheLocalSocketToTheConventionalServerPath() {
    let text = SSHConfigLines.text(
      host: "build.example.org", remotePath: "\(testRoot)/run/user/1001/announce-speechd.sock",
      local: .unixSocket(
        path: "\(testRoot)/run/user/1000/speech-dispatcher/speechd.sock", isUserDefault: true))
    #expect(
      text == """
        # announce: speech from build.example.org is heard on this machine. From: announce init ssh build.example.org
        # "StreamLocalBindUnlink yes" in the sshd_config of build.example.org lets a login replace a forward an old one left.
        Host build.example.org
            RemoteForward \(testRoot)/run/user/1001/announce-speechd.sock \(testRoot)/run/user/1000/speech-dispatcher/speechd.sock

        """)
    let overTCP = SSHConfigLines.text(
      host: "h", remotePath: "\(testRoot)/run/user/1/announce-speechd.sock",
      local: .inetSocket(host: "127.0.0.1", port: 6560))
    #expect(overTCP.contains("RemoteForward \(testRoot)/run/user/1/announce-speechd.sock 127.0.0.1:6560\n"))
  }

  @Test func theHostIsRequiredAndTheRemoteUIDOptional() throws {
    #expect(try SSHInit.parse(["h"]).remoteUID == nil)
    #expect(try SSHInit.parse(["h", "--remote-uid", "1001"]).remoteUID == 1001)
    #expect(throws: (any Error).self) { try SSHInit.parse([]) }
    #expect(throws: (any Error).self) { try SSHInit.parse(["two hosts"]) }
  }
}

/// A failed pipeline is named after its part that failed.
@Suite struct PipelineNameTests {
  func sentence(_ line: String, status: Int32, pipeStatus: [Int32]) -> String? {
    var settings = HookSettings()
    settings.minimumSeconds = 1
    return HookMessage.sentence(
      for: FinishedCommand(commandLine: line, status: status, seconds: 2, pipeStatus: pipeStatus),
      settings: settings)
  }

  @Test func thePartThatFailedIsNamed() {
    #expect(
      sentence("true | false", status: 1, pipeStatus: [0, 1]) == "false failed with status 1 after 2 seconds")
    #expect(
      sentence("cd x && make all | tee log", status: 2, pipeStatus: [2, 0])
        == "make all failed with status 2 after 2 seconds")
    #expect(sentence("make | tee log", status: 0, pipeStatus: [0, 0]) == "make finished after 2 seconds")
  }
}
