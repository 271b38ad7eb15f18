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
    try Command.run("/usr/bin/ssh", arguments(options, command), timeout: timeout)
  }

  /// Starts `command` on the "remote" side in the background, as ``ssh(_:_:timeout:)`` runs it.
  func start(_ options: [String], _ command: String) throws -> Running {
    try Running("/usr/bin/ssh", arguments(options, command))
  }

  /// The arguments of `ssh` that run `command` on the "remote" side, with a HOME and a
  /// state folder of this server's own: sshd gives a session the HOME of the user's passwd
  /// entry, and announce's outcomes went into the log of whoever ran the tests.
  private func arguments(_ options: [String], _ command: String) -> [String] {
    let user = String(cString: getpwuid(getuid()).pointee.pw_name)
    return
      [
        "-F", "none", "-i", directory + "/user_key", "-p", String(port),
        "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
        "-o", "UserKnownHostsFile=" + directory + "/known_hosts",
        "-o", "StrictHostKeyChecking=accept-new", "-o", "LogLevel=ERROR",
      ] + options + [
        user + "@127.0.0.1", "export HOME=\(directory)/home XDG_STATE_HOME=\(directory)/state; " + command,
      ]
  }

  /// The sshd processes that serve its sessions, and so hold their forwards' listeners:
  /// every sshd process descended from the listening server, not the server itself.
  func sessionProcesses() -> [pid_t] {
    var parents: [pid_t: pid_t] = [:]
    var names: [pid_t: String] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // "PID (COMM) STATE PPID ...": the name may hold spaces and parentheses.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
      parents[pid] = parent
      names[pid] = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)) ?? ""
    }
    func descends(_ pid: pid_t) -> Bool {
      var current = pid
      while let parent = parents[current], parent > 1 {
        if parent == server.pid { return true }
        current = parent
      }
      return false
    }
    return parents.keys.filter { descends($0) && names[$0]?.hasPrefix("sshd") == true }
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
