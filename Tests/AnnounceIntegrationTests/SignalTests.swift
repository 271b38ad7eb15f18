import Foundation
import Testing

extension SpeakingTests {
  /// The signals that end a run cleanly, SIGHUP among them: closing a terminal or
  /// dropping an SSH session sends it. These are nested in ``SpeakingTests`` so that the
  /// recordings hold only their own speech.
  @Suite struct Signals: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// Sends `signal` to `running` once its `--json` speech has played for a while, and
    /// returns how it ended, and the seconds of speech recorded before the signal and
    /// from half a second after it on (the time speech-dispatcher takes to stop the
    /// audio, with slack for a loaded machine). `beforeSignal` runs just before it is sent.
    func signalWhileSpeaking(
      _ signal: Int32, _ running: Running, recording: Recording, beforeSignal: () -> Void = {}
    ) -> (result: Command.Result, before: Double, after: Double) {
      #expect(running.waitForOutput(containing: "\"event\":\"begin\""))
      Thread.sleep(forTimeInterval: 0.7)
      beforeSignal()
      let signalled = recording.now()
      running.send(signal)
      let result = running.wait(timeout: 10)
      Thread.sleep(forTimeInterval: 1.0)
      let data = recording.stopKeepingData()
      let after = Recording.speechSeconds(
        in: recording.samples(in: data, after: signalled, plus: 0.5))
      return (result, Recording.speechSeconds(in: data), after)
    }

    @Test(arguments: [(SIGHUP, Int32(129)), (SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalCancelsOurSpeechSaysOneSentenceAndExitsWithItsStatus(signal: Int32, status: Int32) throws {
      let recording = try stack.record()
      let running = try Running(
        Command.announce, ["--json", Self.long], environment: stack.clientEnvironment())
      let (result, before, after) = signalWhileSpeaking(signal, running, recording: recording)
      #expect(result.status == status, "\(result.standardError)")
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1 && lines.first?.hasSuffix("it was cancelled.") == true, "\(lines)")
      #expect(result.standardOutput.contains("\"reason\":\"cancelled\""))
      #expect(before > 0.4, "speech had begun")
      #expect(after < 0.1, "\(after) s of speech more than half a second after signal \(signal)")
    }

    /// After a hang-up the terminal is gone: the sentence goes to a terminal whose other
    /// end was closed, where every write fails, and must neither hang nor crash the run.
    @Test func aHangUpWithTheTerminalGoneStillCancelsAndExits129() throws {
      let (master, terminal) = try Self.openTerminal()
      let recording = try stack.record()
      // The terminal is opened by a process that is not a session leader, so it does not
      // become the controlling terminal and its hang-up is ours to send.
      let running = try Running(
        "/bin/bash", ["-c", #"exec "$0" --json "$1" 2>"$2""#, Command.announce, Self.long, terminal],
        environment: stack.clientEnvironment())
      let (result, _, after) = signalWhileSpeaking(SIGHUP, running, recording: recording) { close(master) }
      #expect(result.status == 129, "\(result.standardError)")
      #expect(result.seconds < 12)
      #expect(result.standardOutput.contains("\"reason\":\"cancelled\""))
      #expect(after < 0.1, "\(after) s of speech more than half a second after SIGHUP")
    }

    /// A new pseudo-terminal: its master end, and the path of the other end. Glibc's
    /// `posix_openpt`, `unlockpt` and `ptsname` are hidden from Swift behind
    /// `_XOPEN_SOURCE`, so this does what they do, with the ioctls of linux/tty.h.
    static func openTerminal() throws -> (master: Int32, path: String) {
      let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      try #require(master >= 0)
      let unlockRequest: UInt = 0x4004_5431  // TIOCSPTLCK, _IOW('T', 0x31, int)
      let numberRequest: UInt = 0x8004_5430  // TIOCGPTN, _IOR('T', 0x30, unsigned int)
      var locked: Int32 = 0
      var number: UInt32 = 0
      try #require(ioctl(master, unlockRequest, &locked) == 0)
      try #require(ioctl(master, numberRequest, &number) == 0)
      return (master, "/dev/pts/\(number)")
    }
  }
}

extension SpeakingTests.Detached {
  @Test func aDetachedChildSentSIGHUPCancelsItsSpeechAndLogsTheOutcome() throws {
    let state = detachState()
    defer { try? FileManager.default.removeItem(atPath: state.directory) }
    let (environment, runtime) = try ownTurns(state.environment, in: state.directory)
    let recording = try stack.record()
    let started = try Command.run(
      Command.announce, ["--detach", "--timeout", "60", Self.long], environment: environment)
    #expect(started.status == 0, "\(started.standardError)")
    let child = try #require(
      processesInLine(runtime: runtime, once: 1).first, "the detached child never queued its announcement")
    // posix_spawn's POSIX_SPAWN_SETSID made it the leader of a session of its own.
    #expect(getsid(child) == child)
    Thread.sleep(forTimeInterval: 1.5)
    let signalled = recording.now()
    kill(child, SIGHUP)
    let entries = logEntries(at: state.log, waitingFor: 1, of: "gave-up")
    Thread.sleep(forTimeInterval: 1.0)
    let data = recording.stopKeepingData()
    #expect(entries.count == 1, "\(entries)")
    #expect(entries.first?["reason"] as? String == "cancelled", "\(entries)")
    #expect(entries.first?["pid"] as? Int == Int(child))
    #expect(Recording.speechSeconds(in: data) > 0.4, "speech had begun")
    // A second of slack, not half of one as in the run's own signal tests: the detached
    // child's cancel took up to 0.62 s under the load of a CI run, and speech that went
    // on would be heard for the 4 s left of the long text.
    let afterwards = Recording.speechSeconds(
      in: recording.samples(in: data, after: signalled, plus: 1.0))
    #expect(afterwards < 0.1, "\(afterwards) s of speech more than a second after SIGHUP")
  }
}
