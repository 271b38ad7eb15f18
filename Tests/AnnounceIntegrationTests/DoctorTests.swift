import Foundation
import Testing

extension SpeakingTests {
  /// `announce doctor` against real daemons: healthy, absent, stopped and without audio;
  /// a real bash with and without the hook; an outcome log that cannot be written. Every
  /// run has a HOME and XDG_STATE_HOME of its own, and speaks only to a private stack.
  @Suite struct Doctor: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// A fresh HOME and state directory for one test.
    static func home() throws -> String {
      let directory = NSTemporaryDirectory() + "announce-doctor-\(getpid())-\(UUID().uuidString.prefix(8))"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      return directory
    }

    /// The environment of a client of `stack`, in `home`, with none of the caller's
    /// tmux, SSH or shell hook, so that only what a test sets up is found.
    static func environment(
      of stack: TestStack, home: String, _ extra: [String: String] = [:]
    ) -> [String: String] {
      var environment = stack.clientEnvironment(["HOME": home, "XDG_STATE_HOME": home + "/state"])
      for name in ["TMUX", "SSH_CONNECTION", "SSH_CLIENT", "ANNOUNCE_SHELL_HOOK", "ANNOUNCE_HISTORY"] {
        environment[name] = nil
      }
      environment.merge(extra) { _, new in new }
      return environment
    }

    /// The JSON objects doctor printed, one per check.
    static func checks(_ output: String) -> [[String: Any]] {
      output.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
    }

    /// The object of the check named `name`.
    static func check(_ name: String, in output: String) -> [String: Any]? {
      checks(output).first { $0["check"] as? String == name }
    }

    @Test func aHealthyStackIsFineAndTheTestSentenceIsHeard() throws {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let recording = try stack.record()
      let result = try Command.run(
        Command.announce, ["doctor", "--json"], environment: Self.environment(of: stack, home: home),
        timeout: 30)
      let speech = recording.stop()
      #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
      #expect(result.standardError.isEmpty, "\(result.standardError)")
      let checks = Self.checks(result.standardOutput)
      #expect(
        checks.compactMap { $0["check"] as? String } == ["address", "daemon", "speech", "shell-hook", "log"])
      #expect(checks.count == result.standardOutput.split(separator: "\n").count, "one JSON object a line")
      #expect(
        Self.check("address", in: result.standardOutput)?["socket"] as? String == stack.directory
          + "/speechd.sock")
      #expect(Self.check("daemon", in: result.standardOutput)?["module"] as? String == "espeak-ng")
      #expect(
        (Self.check("daemon", in: result.standardOutput)?["language"] as? String)?.hasPrefix("en") == true)
      #expect(Self.check("speech", in: result.standardOutput)?["outcome"] as? String == "spoken")
      #expect(Self.check("log", in: result.standardOutput)?["writable"] as? Bool == true)
      // "This is the announce doctor test." takes about 1.7 s to say.
      #expect(speech > 1, "only \(speech) s of speech was recorded")
      #expect(result.seconds < 8, "took \(result.seconds) s")
    }

    @Test func withNoDaemonSpeechIsUnavailableAtOnceAndTheAddressIsNamed() throws {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let socket = home + "/nobody.sock"
      let result = try Command.run(
        Command.announce, ["doctor"],
        environment: Self.environment(of: stack, home: home, ["SPEECHD_ADDRESS": "unix_socket:" + socket]))
      #expect(result.status == 69, "\(result.standardOutput)\(result.standardError)")
      #expect(result.seconds < 3, "took \(result.seconds) s")
      let lines = result.standardOutput.split(separator: "\n").map(String.init)
      #expect(
        lines.first
          == "announce looks for speech-dispatcher at the unix socket \(socket), from SPEECHD_ADDRESS.")
      #expect(
        lines.dropFirst().first?.hasPrefix("Nothing listens at the unix socket \(socket);") == true,
        "\(lines)")
      #expect(lines.contains("No test sentence was spoken, because speech-dispatcher does not answer."))
    }

    @Test func aFrozenDaemonIsFoundWithinItsBound() throws {
      let frozen = try TestStack.start(name: "doctor-frozen")
      defer { frozen.stop() }
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let pid = try #require(frozen.environment["TESTSTACK_SD_PID"].flatMap { pid_t($0) })
      kill(pid, SIGSTOP)
      defer { kill(pid, SIGCONT) }
      let result = try Command.run(
        Command.announce, ["doctor"], environment: Self.environment(of: frozen, home: home), timeout: 30)
      #expect(result.status == 69, "\(result.standardOutput)\(result.standardError)")
      #expect(
        result.standardOutput.contains("did not answer within 2 seconds, so it is probably stopped or frozen")
      )
      #expect(result.seconds < 5, "took \(result.seconds) s")
    }

    @Test func brokenAudioIsFoundWithinItsBoundAndTheSoundServerIsNamed() throws {
      // A stall may leave the daemon blocked for good, so this test has a broken stack of its own.
      let broken = try TestStack.start(name: "doctor-broken", .brokenAudio)
      defer { broken.stop() }
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let result = try Command.run(
        Command.announce, ["doctor", "--json"], environment: Self.environment(of: broken, home: home),
        timeout: 30)
      #expect(result.status == 69, "\(result.standardOutput)\(result.standardError)")
      let speech = try #require(Self.check("speech", in: result.standardOutput))
      #expect(speech["outcome"] as? String == "stalled")
      #expect(speech["finding"] as? String == "speech-unavailable")
      // The stack's own PulseAudio (or the PipeWire of the PipeWire pass) runs as this user.
      let server = speech["soundServer"] as? String
      #expect(server == "PulseAudio" || server == "PipeWire", "\(speech)")
      #expect((speech["text"] as? String)?.contains("check \(server ?? "?")") == true, "\(speech)")
      #expect(result.seconds < 8, "took \(result.seconds) s")
    }

    @Test func addressChecksTheDaemonItNamesOverSPEECHD_ADDRESS() throws {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let result = try Command.run(
        Command.announce, ["doctor", "--address", stack.address],
        environment: Self.environment(
          of: stack, home: home, ["SPEECHD_ADDRESS": "unix_socket:\(home)/nobody.sock"]),
        timeout: 30)
      #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
      #expect(
        result.standardOutput.hasPrefix(
          "announce looks for speech-dispatcher at the unix socket \(stack.directory)/speechd.sock, given with --address.\n"
        ), "\(result.standardOutput)")
    }

    /// Other speech that cuts the test sentence off and goes on past its window, as a
    /// screen reader reading a long text does: speech works, and the line says what happened.
    @Test func aTestSentenceCutOffByOtherSpeechSaysSomethingElseIsSpeaking() async throws {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let interrupter = try await Interrupter(stack: stack)
      let recording = try stack.record()
      let running = try Running(
        Command.announce, ["doctor", "--json"], environment: Self.environment(of: stack, home: home))
      #expect(running.waitForOutput(containing: "\"check\":\"daemon\""))
      #expect(recording.waitForSpeech(seconds: 0.2))
      // At `message` priority, as Orca speaks: it always cuts a playing `text` off.
      _ = try await interrupter.say(Self.long + " " + Self.long, priority: .message)
      let result = running.wait(timeout: 30)
      await interrupter.cancelOwnSpeech()
      _ = recording.stop()
      await interrupter.close()
      #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
      let speech = try #require(Self.check("speech", in: result.standardOutput), "\(result.standardOutput)")
      #expect(speech["outcome"] as? String == "interrupted-out-of-time", "\(speech)")
      #expect(
        (speech["text"] as? String)?.contains("something else, such as a screen reader, is speaking") == true)
      #expect(result.seconds < 8, "took \(result.seconds) s")
    }

    /// Control-C while the test sentence plays cancels it and ends doctor with 130, as any run.
    @Test func aSignalDuringTheTestSentenceCancelsItAndEndsWith130() throws {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let recording = try stack.record()
      let running = try Running(
        Command.announce, ["doctor"], environment: Self.environment(of: stack, home: home))
      #expect(running.waitForOutput(containing: "speech-dispatcher answers"))
      #expect(recording.waitForSpeech(seconds: 0.2))
      running.send(SIGINT)
      let result = running.wait(timeout: 10)
      let speech = recording.stop()
      #expect(result.status == 130, "\(result.standardOutput)\(result.standardError)")
      #expect(
        result.standardError
          == "announce doctor stopped because of SIGINT; the test sentence was cancelled.\n")
      #expect(!result.standardOutput.contains("shell hook"), "no check after the signal")
      // The whole sentence takes about 1.7 s to say.
      #expect(speech < 1.2, "\(speech) s of speech: the sentence was not cancelled")
    }

    @Test func anUnwritableStateDirectoryIsBrokenButSpeechWorks() throws {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      // A file where the state directory should be stops root too, unlike permissions.
      let state = home + "/state-is-a-file"
      #expect(FileManager.default.createFile(atPath: state, contents: Data()))
      let result = try Command.run(
        Command.announce, ["doctor", "--json"],
        environment: Self.environment(of: stack, home: home, ["XDG_STATE_HOME": state]), timeout: 30)
      #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
      #expect(Self.check("speech", in: result.standardOutput)?["outcome"] as? String == "spoken")
      let log = try #require(Self.check("log", in: result.standardOutput))
      #expect(log["finding"] as? String == "something-else-broken")
      #expect(log["writable"] as? Bool == false)
      #expect(
        (log["text"] as? String)?.contains("\(state)/announce/log.jsonl cannot be written") == true, "\(log)")
    }

    @Test func theWordDoctorAfterTheOptionsIsSpoken() throws {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let result = try Command.run(
        Command.announce, ["--json", "--", "doctor"], environment: Self.environment(of: stack, home: home))
      #expect(result.status == 0, "\(result.standardError)")
      #expect(
        result.standardOutput.contains("{\"event\":\"spoken\",\"id\":1,\"text\":\"doctor\""),
        "\(result.standardOutput)")
    }

    /// Runs doctor in a real `shell` whose start-up runs `setup`, and returns its JSON
    /// objects and its exit status.
    func doctor(in shell: ShellSession.Shell, setup: [String]) throws -> (checks: String, status: String) {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let session = try ShellSession(
        shell, setup: setup, environment: Self.environment(of: stack, home: home))
      defer { session.close() }
      #expect(session.waitUntilReady(), "\(shell) showed no prompt: \(session.screen())")
      let output = session.directory + "/doctor.jsonl"
      let status = shell == .fish ? "$status" : "$?"
      #expect(
        session.waitForPrompt(timeout: 30) {
          session.type(
            "command $ANNOUNCE doctor --json > \(output); echo \"status \(status)\" > \(output).status")
        })
      let checks = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      let exit = (try? String(contentsOfFile: output + ".status", encoding: .utf8)) ?? ""
      return (checks, exit.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// bash always; zsh and fish where they are installed.
    static let installedShells = ShellSession.Shell.allCases.filter { $0 == .bash || $0.path != nil }

    @Test(arguments: installedShells)
    func theHookOfTheShellThatRanDoctorIsActiveWithItsThresholdAndIgnoreList(shell: ShellSession.Shell) throws
    {
      // Plain shell variables, not exported: the hook hands them on.
      let setup =
        shell == .fish
        ? [
          "command $ANNOUNCE init fish | source", "set -g ANNOUNCE_MIN_SECONDS 3",
          "set -g ANNOUNCE_IGNORE 'make ninja'",
        ]
        : [
          "eval \"$(\"$ANNOUNCE\" init \(shell.rawValue))\"", "ANNOUNCE_MIN_SECONDS=3",
          "ANNOUNCE_IGNORE='make ninja'",
        ]
      let (output, status) = try doctor(in: shell, setup: setup)
      let hook = try #require(Self.check("shell-hook", in: output), "\(output)")
      #expect(hook["active"] as? Bool == true, "\(hook)")
      #expect(hook["shell"] as? String == shell.rawValue)
      #expect(hook["minSeconds"] as? Double == 3)
      #expect(hook["ignore"] as? [String] == ["make", "ninja"])
      #expect(
        hook["text"] as? String
          == "The \(shell.rawValue) hook is active in this shell: it announces commands that run 3 seconds or longer, and ignores make and ninja."
      )
      #expect(status == "status 0")
    }

    @Test func aShellWithoutTheHookIsInformationOnly() throws {
      let (output, status) = try doctor(in: .bash, setup: [])
      let hook = try #require(Self.check("shell-hook", in: output), "\(output)")
      #expect(hook["active"] as? Bool == false)
      #expect(hook["finding"] as? String == "not-in-use")
      #expect(status == "status 0", "a hook not in use changes no status")
    }

    /// Runs doctor as if inside a private tmux server started with `configuration`, and
    /// returns its tmux object and exit status.
    func doctorInTmux(configuration: String) throws -> (tmux: [String: Any]?, status: Int32) {
      let tmux = try #require(
        ["/usr/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile))
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let socket = home + "/tmux.sock"
      let file = home + "/tmux.conf"
      try configuration.write(toFile: file, atomically: true, encoding: .utf8)
      let started = try Command.run(
        tmux, ["-S", socket, "-f", file, "new-session", "-d", "--", "sleep", "60"],
        environment: Self.environment(of: stack, home: home), timeout: 10)
      #expect(started.status == 0, "\(started.standardError)")
      defer { _ = try? Command.run(tmux, ["-S", socket, "kill-server"], timeout: 5) }
      let result = try Command.run(
        Command.announce, ["doctor", "--json"],
        environment: Self.environment(of: stack, home: home, ["TMUX": socket + ",1,0"]), timeout: 30)
      return (Self.check("tmux", in: result.standardOutput), result.status)
    }

    @Test func tmuxWithTheHooksOfInitTmuxSpeaksItsAlerts() throws {
      let printed = try Command.run(Command.announce, ["init", "tmux"])
      let (tmux, status) = try doctorInTmux(configuration: printed.standardOutput)
      #expect(tmux?["finding"] as? String == "fine", "\(tmux ?? [:])")
      #expect(tmux?["alerts"] as? [String] == ["bell", "activity", "silence"])
      #expect(status == 0)
    }

    @Test func tmuxWithoutTheHooksIsInformationOnly() throws {
      let (tmux, status) = try doctorInTmux(configuration: "set -g bell-action any\n")
      #expect(tmux?["finding"] as? String == "not-in-use", "\(tmux ?? [:])")
      #expect((tmux?["text"] as? String)?.contains("announce init tmux >> ~/.tmux.conf") == true)
      #expect(status == 0)
    }

    /// A socket forwarded over SSH by a session that has ended: nobody listens on it.
    @Test func aStaleSSHForwardMeansSpeechCannotBeHeardAndSaysHowToForwardAgain() throws {
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(atPath: home) }
      let runtime = home + "/run"
      try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
      let forwarded = runtime + "/announce-speechd.sock"
      // Bound and closed: the file stays, and a connection to it is refused.
      let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: forwarded.utf8)
        raw[forwarded.utf8.count] = 0
      }
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      close(listener)
      #expect(bound == 0)
      var environment = Self.environment(
        of: stack, home: home, ["SSH_CONNECTION": "10.0.0.1 50000 10.0.0.2 22", "XDG_RUNTIME_DIR": runtime])
      environment["SPEECHD_ADDRESS"] = nil
      let result = try Command.run(
        Command.announce, ["doctor", "--json"], environment: environment, timeout: 30)
      #expect(result.status == 69, "\(result.standardOutput)\(result.standardError)")
      #expect(result.seconds < 3, "took \(result.seconds) s")
      #expect(Self.check("address", in: result.standardOutput)?["socket"] as? String == forwarded)
      #expect(Self.check("speech", in: result.standardOutput)?["finding"] as? String == "skipped")
      let ssh = try #require(Self.check("ssh-forward", in: result.standardOutput), "\(result.standardOutput)")
      #expect(ssh["finding"] as? String == "speech-unavailable")
      #expect((ssh["text"] as? String)?.contains("is stale") == true, "\(ssh)")
      #expect((ssh["text"] as? String)?.contains("announce init ssh") == true, "\(ssh)")
      // Doctor only looks: the socket is left for the next announcement to remove.
      #expect(FileManager.default.fileExists(atPath: forwarded))
    }

    /// Why doctor has no screen-reader check: speech-dispatcher answers `HISTORY GET
    /// CLIENT_LIST` with "not implemented" on both releases (since 0.10.0, upstream
    /// commit 62e9da65), even while a client named as Orca names itself is connected.
    @Test func speechDispatcherDoesNotListItsClientsSoNoScreenReaderCanBeSeen() throws {
      let orca = try SSIPTestClient(socket: stack.directory + "/speechd.sock")
      #expect(orca.ask("SET SELF CLIENT_NAME \"unknown:orca:default\"").hasPrefix("208"))
      let doctor = try SSIPTestClient(socket: stack.directory + "/speechd.sock")
      #expect(doctor.ask("SET SELF CLIENT_NAME \"unknown:announce:doctor\"").hasPrefix("208"))
      let reply = doctor.ask("HISTORY GET CLIENT_LIST")
      #expect(reply.hasPrefix("380"), "\(reply)")
      #expect(!reply.contains("orca"))
    }
  }
}

/// A bare SSIP connection to a unix socket, one command and reply at a time.
final class SSIPTestClient {
  private let socket: Int32

  init(socket path: String) throws {
    socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
      raw[path.utf8.count] = 0
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw StackError("could not connect to \(path)")
    }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(socket) }

  /// Sends `command` and returns the whole reply, up to its final `ddd ` line.
  func ask(_ command: String) -> String {
    let line = command + "\r\n"
    _ = send(socket, line, line.utf8.count, Int32(MSG_NOSIGNAL))
    var reply = ""
    var byte: UInt8 = 0
    while recv(socket, &byte, 1, 0) == 1 {
      reply.unicodeScalars.append(Unicode.Scalar(byte))
      if byte == UInt8(ascii: "\n"), let last = reply.split(separator: "\r\n").last, last.count > 3,
        last[last.index(last.startIndex, offsetBy: 3)] == " "
      {
        break
      }
    }
    return reply
  }
}
