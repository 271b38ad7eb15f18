import Foundation
import Synchronization

/// A private brltty with its Virtual braille driver, started through
/// `Tests/Support/teststack braille-start`: brltty 6.5 from this machine for
/// `TESTSTACK_RELEASE=12`, 6.7 from the Debian 13 root for 13. Its BrlAPI socket is
/// private to it (`BRLAPI_HOST=:teststack-…`, `BRLAPI_AUTH=none`), and its display is a
/// ``VirtualBrailleDisplay`` on ``displaySocket``.
final class BrailleStack: Sendable {
  /// The directory whose `env` file names it: its own, or a speech ``TestStack``'s.
  let directory: String
  /// What teststack wrote to the `env` file.
  let environment: [String: String]

  /// `BRLAPI_HOST` of this brltty, `:NAME`.
  var host: String { environment["BRLAPI_HOST"] ?? "" }
  /// The Virtual driver's socket, where the display connects.
  var displaySocket: String { environment["TESTSTACK_VR_SOCKET"] ?? directory + "/vr.sock" }
  /// The Debian release whose brltty runs: "12" (6.5) or "13" (6.7).
  var release: String { environment["TESTSTACK_RELEASE"] ?? "12" }
  /// brltty's Debian version, such as `6.5-7+deb12u1`.
  var version: String { environment["TESTSTACK_BRLTTY_VERSION"] ?? "unknown" }
  /// brltty's process id.
  var pid: pid_t { pid_t(environment["TESTSTACK_BRLTTY_PID"] ?? "") ?? 0 }

  private static let started = Mutex<[String]>([])

  /// Starts a brltty of its own in a fresh directory, in the release `TESTSTACK_RELEASE`
  /// names; it is stopped and its directory removed when the test process exits.
  static func start(name: String) throws -> BrailleStack {
    let directory = NSTemporaryDirectory() + "announce-tests-\(getpid())-braille-\(name)"
    let stack = try start(in: directory)
    let isFirst = started.withLock {
      $0.append(directory)
      return $0.count == 1
    }
    if isFirst { atexit { BrailleStack.stopAll() } }
    return stack
  }

  /// Starts brltty beside the speech stack `stack`, in its directory and its release;
  /// stopping that stack stops it too.
  static func start(beside stack: TestStack) throws -> BrailleStack {
    try start(in: stack.directory)
  }

  private static func start(in directory: String) throws -> BrailleStack {
    let result = try Command.run(TestStack.script, ["braille-start", directory], timeout: 30)
    guard result.status == 0 else {
      throw StackError("teststack braille-start failed: \(result.standardError)")
    }
    return BrailleStack(directory: directory, environment: try Self.readEnvironment(directory))
  }

  private init(directory: String, environment: [String: String]) {
    self.directory = directory
    self.environment = environment
  }

  private static func readEnvironment(_ directory: String) throws -> [String: String] {
    let text = try String(contentsOfFile: directory + "/env", encoding: .utf8)
    var environment: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return environment
  }

  /// Stops brltty (SIGKILL) and removes its BrlAPI socket; its clients see the
  /// connection end. A speech stack in the same directory goes on.
  func stop() {
    _ = try? Command.run(TestStack.script, ["braille-stop", directory], timeout: 30)
  }

  private static func stopAll() {
    for directory in started.withLock({ $0 }) {
      _ = try? Command.run(TestStack.script, ["stop", directory], timeout: 30)
      if ProcessInfo.processInfo.environment["ANNOUNCE_KEEP_TEST_STACKS"] != "1" {
        try? FileManager.default.removeItem(atPath: directory)
      }
    }
  }

  /// `base` with this brltty's `BRLAPI_HOST` and `BRLAPI_AUTH`, in `session`: what a
  /// BrlAPI client of this stack (announce, or a screen reader) runs with.
  func clientEnvironment(
    _ base: [String: String] = ProcessInfo.processInfo.environment, session: BrailleSession = .desktop
  ) -> [String: String] {
    var environment = base
    environment["BRLAPI_HOST"] = host
    environment["BRLAPI_AUTH"] = "none"
    session.apply(to: &environment)
    return environment
  }
}

/// The session a BrlAPI client runs in, as far as its tty goes. libbrlapi puts the
/// session's terminal in front of the path a client gives `enterTtyModeWithPath`: the
/// numbers in `WINDOWPATH`, or, when that is unset and `DISPLAY` is set, `XDG_VTNR`
/// (Programs/brlapi_client.c). A client is shown only on the tty it is attached to, so a
/// screen reader and announce must be given the same session to share the display.
enum BrailleSession: Sendable, Equatable {
  /// A desktop on virtual terminal `vt`, whose display manager sets `WINDOWPATH`, as the
  /// ones Orca runs under do.
  case windowPath(String)
  /// A desktop whose display manager sets only `XDG_VTNR` (gdm 3.12 did), with `DISPLAY`.
  case vtNumber(String)
  /// No session at all (a service, a cron job): the client attaches to the root tty.
  case none

  /// The session the tests' screen reader and announce share: a desktop on tty 7.
  static let desktop = BrailleSession.windowPath("7")

  /// Sets the variables libbrlapi reads for this session in `environment`, and removes
  /// the others, so that the caller's own session never leaks in.
  func apply(to environment: inout [String: String]) {
    for key in ["WINDOWPATH", "XDG_VTNR", "DISPLAY", "WAYLAND_DISPLAY"] { environment[key] = nil }
    switch self {
    case .windowPath(let path):
      environment["WINDOWPATH"] = path
    case .vtNumber(let vt):
      environment["XDG_VTNR"] = vt
      environment["DISPLAY"] = ":0"
    case .none:
      break
    }
  }
}
