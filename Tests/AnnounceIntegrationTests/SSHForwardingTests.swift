import AnnouncerCore
import AnnouncerTesting
import Foundation
import Testing

extension SpeakingTests {
  /// Speaking from a remote shell: a real sshd on 127.0.0.1 forwards the private stack's
  /// socket with `ssh -R`, and announce on the "remote" side finds it with no address given.
  /// These are nested in ``SpeakingTests`` so that the recording holds only their speech.
  @Suite struct RemoteShells: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    @Test func announceUnderSSHSpeaksThroughTheForwardedSocketAndReportsItWhenStale() throws {
      let sshd = try PrivateSSHD(name: "forward")
      defer { sshd.stop() }
      let runtime = sshd.directory + "/run"
      try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
      let forwarded = runtime + "/" + ForwardedSpeechdSocket.fileName
      let localSocket = String(stack.address.dropFirst("unix_socket:".count))
      // sshd sets SSH_CONNECTION; nothing passes SPEECHD_ADDRESS, and env -u makes sure.
      let remote =
        "exec env -u SPEECHD_ADDRESS XDG_RUNTIME_DIR=\(runtime) \(Command.announce) --verbose Saved"

      let recording = try stack.record()
      let spoken = try sshd.ssh(
        ["-o", "ExitOnForwardFailure=yes", "-R", forwarded + ":" + localSocket], remote)
      let speech = recording.stop()
      #expect(spoken.status == 0, "\(spoken.standardError)")
      #expect(spoken.standardError.contains("\(forwarded), forwarded over SSH"), "\(spoken.standardError)")
      #expect(speech > 0.25, "only \(speech) s of speech was recorded")

      // The session has ended; sshd (without StreamLocalBindUnlink) left its socket behind.
      #expect(ForwardedSpeechdSocket.presence(at: forwarded) == .ours)
      let stale = try sshd.ssh(
        [], "exec env -u SPEECHD_ADDRESS XDG_RUNTIME_DIR=\(runtime) \(Command.announce) Saved")
      #expect(stale.status == 69, "\(stale.standardError)")
      #expect(stale.seconds < 4, "took \(stale.seconds) s, login included")
      let lines = stale.standardError.split(separator: "\n")
      #expect(lines.count == 1, "\(stale.standardError)")
      #expect(stale.standardError.contains("forwarded over SSH at \(forwarded)"))
      #expect(stale.standardError.contains("announce init ssh"))
      // Removed, so that the next login's forward is not refused by the leftover.
      #expect(ForwardedSpeechdSocket.presence(at: forwarded) == .absent)
    }

    /// Issue 39 item 1: the sshd session behind a forward is stopped (SIGSTOP), as a hung
    /// one looks. Its listener still takes connections into its backlog, and nothing answers
    /// them; once the backlog is full, a blocking connect() to it never returns, and every
    /// prompt's hook was left waiting. The run, doctor and the hook each end within 5 s,
    /// saying that the SSH session is stopped or hung, and the live session's socket stays.
    @Test func aForwardWhoseSSHSessionIsStoppedEndsWithinTheBoundAndSaysSo() throws {
      let sshd = try PrivateSSHD(name: "stopped")
      defer { sshd.stop() }
      let runtime = sshd.directory + "/run"
      try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
      let forwarded = runtime + "/" + ForwardedSpeechdSocket.fileName
      let localSocket = String(stack.address.dropFirst("unix_socket:".count))
      let session = try sshd.start(
        ["-o", "ExitOnForwardFailure=yes", "-R", forwarded + ":" + localSocket], "sleep 120")
      defer { session.send(SIGKILL) }
      let forwardMade = ContinuousClock.now + .seconds(15)
      while ForwardedSpeechdSocket.presence(at: forwarded) != .ours && ContinuousClock.now < forwardMade {
        Thread.sleep(forTimeInterval: 0.05)
      }
      #expect(ForwardedSpeechdSocket.presence(at: forwarded) == .ours, "no forward was made")
      let stopped = sshd.sessionProcesses()
      #expect(!stopped.isEmpty)
      for pid in stopped { kill(pid, SIGSTOP) }
      defer { for pid in stopped { kill(pid, SIGCONT) } }
      // What a shell of another session of the same user, or the stopped one's own
      // hooks, runs: no address, and the session's runtime directory.
      let environment = stack.clientEnvironment([
        "SSH_CONNECTION": "127.0.0.1 50000 127.0.0.1 \(sshd.port)", "XDG_RUNTIME_DIR": runtime,
      ]).filter { $0.key != "SPEECHD_ADDRESS" }
      func run(_ arguments: [String]) throws -> Command.Result {
        try Command.run(Command.announce, arguments, environment: environment, timeout: 20)
      }
      let hook = ["hook-finished", "--status", "1", "--milliseconds", "60000", "--", "make"]

      // The backlog has room: the connection is taken, and nothing answers through it.
      for arguments in [["Saved"], hook] {
        let result = try run(arguments)
        #expect(result.status == 69, "\(arguments): \(result.standardError)")
        #expect(result.seconds < 5, "\(arguments) took \(result.seconds) s")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(
          result.standardError.contains(
            "forwarded over SSH at \(forwarded), but nothing answers through it, so the SSH session behind it"
          ),
          "\(result.standardError)")
      }

      // The backlog full, as a stopped session's is after enough prompts.
      // sshd listens with a backlog of 128.
      let filling = try StuckListener.fillBacklog(at: forwarded, within: 4096)
      defer { for fd in filling { close(fd) } }
      for arguments in [["Saved"], hook, ["doctor"]] {
        let result = try run(arguments)
        let said = arguments == ["doctor"] ? result.standardOutput : result.standardError
        #expect(result.status == 69, "\(arguments): \(result.standardOutput)\(result.standardError)")
        #expect(result.seconds < 5, "\(arguments) took \(result.seconds) s")
        #expect(
          said.contains(
            "\(forwarded), but it does not accept connections, so the SSH session behind it is stopped or hung"
          ),
          "\(said)")
      }
      #expect(
        ForwardedSpeechdSocket.presence(at: forwarded) == .ours, "the live session's socket was removed")
    }

    @Test func initSSHPrintsTheConfigLinesForThisUsersSocket() throws {
      let result = try Command.run(
        Command.announce, ["init", "ssh", "build.example.org", "--remote-uid", "1234"],
        environment: stack.clientEnvironment())
      let localSocket = String(stack.address.dropFirst("unix_socket:".count))
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.contains("Host build.example.org\n"))
      #expect(
        result.standardOutput.contains(
          "    RemoteForward /run/user/1234/announce-speechd.sock \(localSocket)\n"))
      #expect(result.standardOutput.split(separator: "\n").count == 4, "\(result.standardOutput)")
      let noHost = try Command.run(Command.announce, ["init", "ssh"])
      #expect(noHost.status == 64)
    }
  }
}
