import Foundation

/// A real OpenSSH server of the test's own: its own host key, user key, configuration and
/// high port on 127.0.0.1, in the test's directory. The system's sshd, its configuration
/// and port 22 are never touched.
///
/// It logs in the user running the tests (root in CI) with the throwaway key only.
/// `StrictModes no` because the key files live under the temporary directory, whose
/// ancestors sshd would otherwise insist on owning.
final class PrivateSSHD {
  let directory: String
  let port: Int
  private let server: Running

  static let sshd = "/usr/sbin/sshd"

  init(name: String) throws {
    guard FileManager.default.isExecutableFile(atPath: Self.sshd) else {
      throw StackError("\(Self.sshd) is missing; run scripts/setup, which installs openssh-server.")
    }
    directory = NSTemporaryDirectory() + "announce-ssh-\(getpid())-\(name)"
    try? FileManager.default.removeItem(atPath: directory)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for key in ["host_key", "user_key"] {
      let made = try Command.run(
        "/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", directory + "/" + key])
      guard made.status == 0 else { throw StackError("ssh-keygen failed: \(made.standardError)") }
    }
    try FileManager.default.copyItem(
      atPath: directory + "/user_key.pub", toPath: directory + "/authorized_keys")
    port = try Self.freePort()
    let configuration = """
      ListenAddress 127.0.0.1
      Port \(port)
      HostKey \(directory)/host_key
      AuthorizedKeysFile \(directory)/authorized_keys
      PidFile none
      UsePAM no
      StrictModes no
      PermitRootLogin prohibit-password
      PasswordAuthentication no
      KbdInteractiveAuthentication no
      AllowStreamLocalForwarding yes
      PrintMotd no

      """
    try configuration.write(toFile: directory + "/sshd_config", atomically: true, encoding: .utf8)
    // sshd refuses to start without its privilege separation directory; the Debian package
    // creates it only when it starts the system's sshd, which never happens in a container.
    if getuid() == 0 && !FileManager.default.fileExists(atPath: "/run/sshd") {
      try FileManager.default.createDirectory(
        atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }
    server = try Running(Self.sshd, ["-D", "-e", "-f", directory + "/sshd_config"])
    guard server.waitForOutput(containing: "Server listening", timeout: 10) else {
      server.send(SIGKILL)
      throw StackError("the private sshd did not start: \(server.standardError)")
    }
  }

  /// Runs `command` on the "remote" side, as this user, with ssh's extra `options`.
  func ssh(_ options: [String], _ command: String, timeout: Double = 30) throws -> Command.Result {
    let user = String(cString: getpwuid(getuid()).pointee.pw_name)
    let arguments =
      [
        "-F", "none", "-i", directory + "/user_key", "-p", String(port),
        "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
        "-o", "UserKnownHostsFile=" + directory + "/known_hosts",
        "-o", "StrictHostKeyChecking=accept-new", "-o", "LogLevel=ERROR",
      ] + options + [user + "@127.0.0.1", command]
    return try Command.run("/usr/bin/ssh", arguments, timeout: timeout)
  }

  func stop() {
    server.send(SIGTERM)
    _ = server.wait(timeout: 5)
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// A TCP port on 127.0.0.1 that nothing uses now, chosen by the kernel.
  private static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw StackError("no free TCP port on 127.0.0.1") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
