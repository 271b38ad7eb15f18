import Foundation
import Glibc
import Testing

/// Only root makes a mount namespace with a resolv.conf of its own, as CI runs the tests.
private let canMakeAMountNamespace =
  getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

extension CommandTests {
  /// A host name in SPEECHD_ADDRESS whose lookup fails or never ends (issue 47, defect 4):
  /// `getaddrinfo` had no bound, so a name server that never answered took the whole 5 s
  /// connection bound and was reported as a stopped daemon, and a name that failed at once
  /// as nothing listening. Each run has a mount namespace of its own (`unshare -m`, as
  /// root) whose /etc/resolv.conf names a name server of the test's: a UDP socket that
  /// never replies, or an address where nothing listens; the machine's own stays as it is.
  @Suite(.enabled(if: canMakeAMountNamespace))
  struct NameLookup {
    /// A folder of the test's own, with the resolv.conf files the runs see.
    let folder: String
    /// A UDP socket on port 53 of an address of the loopback network, which reads nothing.
    let silentServer: Int32
    let silentConf: String
    let refusingConf: String

    init() throws {
      folder = NSTemporaryDirectory() + "announce-lookup-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      // Two addresses of 127.0.0.0/8 that nothing else uses: one the test listens on, one
      // where nothing listens, so that the lookup is refused at once.
      let third = Int.random(in: 100...250)
      let silent = "127.77.\(third).1"
      let refusing = "127.77.\(third).2"
      let server = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(53).bigEndian)
      address.sin_addr.s_addr = inet_addr(silent)
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else {
        let code = errno
        close(server)
        throw StackError("could not bind \(silent):53: errno \(code)")
      }
      silentServer = server
      silentConf = folder + "/silent.conf"
      refusingConf = folder + "/refusing.conf"
      // A timeout longer than any bound of announce's, so that only its own bound ends the wait.
      try "nameserver \(silent)\noptions timeout:30 attempts:1\n".write(
        toFile: silentConf, atomically: true, encoding: .utf8)
      try "nameserver \(refusing)\noptions timeout:30 attempts:1\n".write(
        toFile: refusingConf, atomically: true, encoding: .utf8)
    }

    /// Runs announce with `arguments` in a mount namespace whose /etc/resolv.conf is `conf`.
    func announce(_ arguments: [String], resolvConf conf: String) throws -> Command.Result {
      var environment = ProcessInfo.processInfo.environment
      environment["SPEECHD_ADDRESS"] = "inet_socket:speechd.invalid:6560"
      environment["HOME"] = folder
      environment["XDG_STATE_HOME"] = folder + "/state"
      environment["XDG_RUNTIME_DIR"] = folder
      for name in ["TMUX", "SSH_CONNECTION", "SSH_CLIENT", "ANNOUNCE_SHELL_HOOK", "ANNOUNCE_BRAILLE"] {
        environment[name] = nil
      }
      return try Command.run(
        "/usr/bin/unshare",
        ["-m", "sh", "-c", #"mount --bind "$1" /etc/resolv.conf && shift && exec "$@""#, "sh", conf]
          + [Command.announce] + arguments,
        environment: environment, timeout: 60)
    }

    @Test func aNameServerThatNeverAnswersIsSaidAsALookupThatTookTooLong() throws {
      defer {
        close(silentServer)
        try? FileManager.default.removeItem(atPath: folder)
      }
      let run = try announce(["Build finished"], resolvConf: silentConf)
      #expect(run.status == 69, "\(run.standardError)")
      #expect(
        run.standardError
          == "announce could not reach speech-dispatcher at speechd.invalid port 6560, because looking up that host name took longer than 2 seconds; check the name servers in /etc/resolv.conf, or write the host's IP address in the address or SPEECHD_ADDRESS.\n"
      )
      #expect(run.seconds < 4.5, "took \(run.seconds) s")
      let doctor = try announce(["doctor"], resolvConf: silentConf)
      #expect(doctor.status == 69, "\(doctor.standardOutput)")
      #expect(
        doctor.standardOutput.contains(
          "Announce could not reach speech-dispatcher at speechd.invalid port 6560, because looking up that host name took longer than 2 seconds;"
        ), "\(doctor.standardOutput)")
      #expect(!doctor.standardOutput.contains("stopped or frozen"), "\(doctor.standardOutput)")
      #expect(doctor.seconds < 8, "took \(doctor.seconds) s")
    }

    @Test func aNameThatFailsAtOnceIsSaidAsANameThatDoesNotResolve() throws {
      defer {
        close(silentServer)
        try? FileManager.default.removeItem(atPath: folder)
      }
      let run = try announce(["Build finished"], resolvConf: refusingConf)
      #expect(run.status == 69, "\(run.standardError)")
      #expect(
        run.standardError
          == "announce could not reach speech-dispatcher at speechd.invalid port 6560, because that host name does not resolve; correct the host name in the address or SPEECHD_ADDRESS.\n"
      )
      #expect(run.seconds < 2, "took \(run.seconds) s")
      let doctor = try announce(["doctor"], resolvConf: refusingConf)
      #expect(doctor.status == 69, "\(doctor.standardOutput)")
      #expect(
        doctor.standardOutput.contains(
          "Announce could not reach speech-dispatcher at speechd.invalid port 6560, because that host name does not resolve;"
        ), "\(doctor.standardOutput)")
      #expect(!doctor.standardOutput.contains("Nothing listens"), "\(doctor.standardOutput)")
    }
  }
}
