import Foundation

/// A tmux server of its own, on a private `-L` socket in a fresh directory, loaded with
/// what `announce init tmux` prints, with a client attached through a second, outer tmux
/// server, so that one window is being looked at.
///
/// The hooks run the copy of announce in ``announcePath``, in a directory whose name
/// holds a quote, double quotes, a dollar and a hash, so that the printed configuration
/// must quote it for tmux, its formats and `/bin/sh`. Only this object's two servers
/// are ever stopped.
final class PrivateTmux {
  let directory: String
  let socketName: String
  let announcePath: String
  private let tmux: String
  private let environment: [String: String]

  /// The log announce writes, in the server's own state directory.
  var logPath: String { directory + "/state/announce/log.jsonl" }

  /// Starts the server with session `main`, whose window 0, `front`, runs `frontCommand`,
  /// in `environment` with `announceVariables` instead of the caller's `ANNOUNCE_`
  /// variables, with `extraConfiguration` after the printed lines.
  init(
    environment: [String: String], frontCommand: String, extraConfiguration: [String] = [],
    announceVariables: [String: String] = [:]
  ) throws {
    guard let tmux = ["/usr/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile)
    else { throw SpawnError(description: "tmux is not installed") }
    self.tmux = tmux
    directory = NSTemporaryDirectory() + "announce-tmux-\(getpid())-\(UUID().uuidString.prefix(8))"
    socketName = "announce-test-\(UUID().uuidString.prefix(8))"
    let bin = directory + "/bin it's \"odd\" $HOME #{pid}"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    announcePath = bin + "/announce"
    try FileManager.default.copyItem(atPath: Command.announce, toPath: announcePath)

    var environment = environment.filter { !$0.key.hasPrefix("ANNOUNCE_") }
    environment.merge(announceVariables) { _, new in new }
    environment["XDG_STATE_HOME"] = directory + "/state"
    environment["TMUX_TMPDIR"] = directory
    environment["TERM"] = "xterm-256color"
    environment["TMUX"] = nil
    self.environment = environment

    let printed = try Command.run(announcePath, ["init", "tmux"], environment: environment, timeout: 10)
    guard printed.status == 0 else {
      throw SpawnError(description: "announce init tmux failed: \(printed.standardError)")
    }
    let configuration = directory + "/tmux.conf"
    try (printed.standardOutput + extraConfiguration.map { $0 + "\n" }.joined())
      .write(toFile: configuration, atomically: true, encoding: .utf8)
    let started = try Command.run(
      tmux,
      [
        "-L", socketName, "-f", configuration, "new-session", "-d", "-s", "main", "-n", "front", "-x", "80",
        "-y", "24", "--", "sh", "-c", frontCommand,
      ],
      environment: environment, timeout: 10)
    guard started.status == 0 else {
      throw SpawnError(description: "tmux did not start: \(started.standardError)")
    }
  }

  /// Runs a tmux command on this server; its output.
  @discardableResult
  func run(_ arguments: [String]) -> Command.Result? {
    try? Command.run(tmux, ["-L", socketName] + arguments, environment: environment, timeout: 10)
  }

  /// Attaches a client to `session` on a terminal of the outer server; whether it showed up.
  func attachClient(to session: String) -> Bool {
    _ = try? Command.run(
      tmux,
      [
        "-S", directory + "/outer.sock", "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "25", "--",
        "env", "-u", "TMUX", tmux, "-L", socketName, "attach-session", "-t", session,
      ],
      environment: environment, timeout: 10)
    return wait {
      (run(["list-clients", "-F", "#{client_session}"])?.standardOutput ?? "").contains(session)
    }
  }

  /// The value of `format` for `target`, as `display-message -p` prints it.
  func display(_ format: String, in target: String) -> String {
    let output = run(["display-message", "-p", "-t", target, format])?.standardOutput ?? ""
    return output.trimmingCharacters(in: .newlines)
  }

  /// Presses Enter in the window `target`.
  func pressEnter(in target: String) {
    run(["send-keys", "-t", target, "Enter"])
  }

  /// The texts of the `spoken` lines in announce's log.
  func spokenTexts() -> [String] { texts(of: "spoken") }

  /// The texts of the log's lines whose `event` is `event`.
  func texts(of event: String) -> [String] {
    let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      guard
        let entry = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any],
        entry["event"] as? String == event
      else { return nil }
      return entry["text"] as? String
    }
  }

  /// Waits until `count` announcements are logged as spoken and no process of this
  /// server's announce runs any more, so that any alert spoken wrongly is logged too;
  /// whether that happened within `timeout` seconds.
  func waitUntilSpokenAndDone(count: Int, timeout: Double = 30) -> Bool {
    wait(timeout: timeout) { spokenTexts().count >= count && runningAnnounces() == 0 }
  }

  /// How many processes run this server's copy of announce.
  func runningAnnounces() -> Int {
    let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return processes.filter { name in
      name.allSatisfy(\.isNumber)
        && (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/exe")) == announcePath
    }.count
  }

  /// The whole log, for a failure's message.
  func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Polls until `condition` holds, at most `timeout` seconds; whether it held.
  func wait(timeout: Double = 20, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return condition()
  }

  /// Stops both servers and removes the directory.
  func close() {
    run(["kill-server"])
    _ = try? Command.run(tmux, ["-S", directory + "/outer.sock", "kill-server"], timeout: 5)
    if ProcessInfo.processInfo.environment["ANNOUNCE_KEEP_TEST_STACKS"] != "1" {
      try? FileManager.default.removeItem(atPath: directory)
    }
  }
}
