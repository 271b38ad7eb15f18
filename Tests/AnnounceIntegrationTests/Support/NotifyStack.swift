import Foundation

/// A private desktop with a notification server, started through
/// `Tests/Support/notifystack`: Xvfb, a session dbus-daemon and the real dunst (1.9 on
/// Debian 12; 1.12 from the Debian 13 root for `TESTSTACK_RELEASE=13`). Its bus is
/// `DIR/bus`, in a folder of its own that is removed on ``stop()``.
final class NotifyStack: Sendable {
  static let script = TestStack.packageRoot.appendingPathComponent("Tests/Support/notifystack").path

  let directory: String
  /// `DBUS_SESSION_BUS_ADDRESS` and `DISPLAY` of the private desktop.
  let environment: [String: String]

  /// Starts the desktop in a fresh folder; with `server: false`, a bus with no
  /// notification server on it.
  init(server: Bool = true) throws {
    directory = try FileManager.default.temporaryFolder(named: "notify")
    let result = try Command.run(
      Self.script, ["start", directory] + (server ? [] : ["--no-server"]), timeout: 60)
    guard result.status == 0 else {
      try? FileManager.default.removeItem(atPath: directory)
      throw StackError("notifystack start failed: \(result.standardError)")
    }
    var environment: [String: String] = [:]
    let text = try String(contentsOfFile: directory + "/notify-env", encoding: .utf8)
    for line in text.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    self.environment = environment
  }

  /// Runs `dunstctl ARGUMENTS` against the stack's dunst, as the user at the desktop.
  @discardableResult
  func dunstctl(_ arguments: String...) throws -> String {
    let result = try Command.run(Self.script, ["ctl", directory] + arguments, timeout: 30)
    guard result.status == 0 else {
      throw StackError("dunstctl \(arguments) failed: \(result.standardError)")
    }
    return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Kills dunst alone: the server leaves the bus while the bus stays.
  func stopServer() throws {
    let result = try Command.run(Self.script, ["stop-server", directory], timeout: 30)
    guard result.status == 0 else {
      throw StackError("notifystack stop-server failed: \(result.standardError)")
    }
  }

  /// Stops everything and removes the folder.
  func stop() {
    _ = try? Command.run(Self.script, ["stop", directory], timeout: 30)
    try? FileManager.default.removeItem(atPath: directory)
  }

  deinit {
    stop()
  }
}

extension FileManager {
  /// A new folder of its own under TMPDIR, short enough for a unix socket path.
  fileprivate func temporaryFolder(named name: String) throws -> String {
    var template = Array((NSTemporaryDirectory() + "an-\(name).XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }) else {
      throw StackError("mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
  }
}
