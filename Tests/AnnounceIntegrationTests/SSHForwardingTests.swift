import AnnouncerCore
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
