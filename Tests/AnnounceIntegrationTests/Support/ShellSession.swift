import Foundation

/// An interactive shell on a real terminal: a private tmux server, on a socket of its
/// own in a fresh directory, running bash, zsh or fish with a start-up file of ours.
///
/// The start-up file installs a prompt hook of the user's own before announce's, which
/// appends `prompt SECONDS STATUS PIPESTATUS` to ``promptsPath`` at every prompt; test
/// commands append `end SECONDS` there right after the work they time. Only this
/// session's tmux server is ever stopped.
final class ShellSession {
  /// A shell the tests drive.
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The shell's program, or `nil` when it is not installed.
    var path: String? {
      ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + rawValue }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
  }

  let shell: Shell
  let directory: String
  private let socket: String
  private let tmux: String

  /// Where the prompt hook and the test commands write their lines.
  var promptsPath: String { directory + "/prompts" }
  /// The log announce writes, in the session's own state directory.
  var logPath: String { directory + "/state/announce/log.jsonl" }

  /// Starts `shell`, whose start-up runs `setup` (lines in the shell's own syntax) after
  /// the user's prompt hook, in `environment` plus a private state, history and tmux.
  /// - Parameter options: more options for the shell, such as fish's `--private`.
  init(_ shell: Shell, setup: [String], environment: [String: String], options: [String] = []) throws {
    guard let program = shell.path else { throw SpawnError(description: "\(shell) is not installed") }
    guard let tmux = ["/usr/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile)
    else { throw SpawnError(description: "tmux is not installed") }
    self.shell = shell
    self.tmux = tmux
    directory = NSTemporaryDirectory() + "announce-shell-\(getpid())-\(UUID().uuidString.prefix(8))"
    socket = directory + "/tmux.sock"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: promptsPath, contents: nil)

    var environment = environment
    environment["XDG_STATE_HOME"] = directory + "/state"
    environment["XDG_DATA_HOME"] = directory + "/data"
    environment["XDG_CONFIG_HOME"] = directory + "/config"
    environment["ZDOTDIR"] = directory
    environment["ANNOUNCE"] = Command.announce
    environment["PROMPTS"] = promptsPath
    environment["TERM"] = "xterm-256color"
    environment["TMUX"] = nil
    environment["PROMPT_COMMAND"] = nil
    environment["PS0"] = nil

    let command: [String]
    switch shell {
    case .bash:
      let rc = directory + "/bashrc"
      try Self.write(
        [
          "HISTFILE=", "PS1='$ '",
          #"PROMPT_COMMAND='echo "prompt $EPOCHREALTIME $? ${PIPESTATUS[*]}" >> "$PROMPTS"'"#,
        ] + setup, to: rc)
      command = [program, "--noprofile", "--rcfile", rc] + options + ["-i"]
    case .zsh:
      try Self.write(
        [
          "unset HISTFILE", "PS1='$ '", "zmodload zsh/datetime",
          #"users_precmd() { print -r -- "prompt $EPOCHREALTIME $? ${pipestatus[*]}" >> "$PROMPTS"; }"#,
          "precmd_functions+=(users_precmd)",
        ] + setup, to: directory + "/.zshrc")
      command = [program, "-d"] + options + ["-i"]
    case .fish:
      let rc = directory + "/config.fish"
      try Self.write(
        [
          "set -g fish_greeting",
          #"function fish_prompt; set -l s $status; set -l p $pipestatus; echo "prompt "(date +%s.%N)" $s $p" >> $PROMPTS; echo -n '$ '; end"#,
        ] + setup, to: rc)
      // fish 3.6's --no-config turns on private mode too; it is turned off again unless
      // asked for, so that the session is a user's usual fish. Its history goes to the
      // session's own XDG_DATA_HOME.
      let mode = options.contains("--private") ? "" : "set -e fish_private_mode; "
      command = [program, "--no-config"] + options + ["-i", "-C", mode + "source " + rc]
    }
    let started = try Command.run(
      tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50", "--"] + command,
      environment: environment, timeout: 10)
    guard started.status == 0 else {
      throw SpawnError(description: "tmux did not start: \(started.standardError)")
    }
  }

  private static func write(_ lines: [String], to path: String) throws {
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Types `line` and Enter.
  func type(_ line: String) {
    _ = try? Command.run(tmux, ["-S", socket, "send-keys", "-l", "--", line], timeout: 5)
    press("Enter")
  }

  /// Presses a key by its tmux name, such as `C-c`.
  func press(_ key: String) {
    _ = try? Command.run(tmux, ["-S", socket, "send-keys", key], timeout: 5)
  }

  /// What the terminal shows.
  func screen() -> String {
    (try? Command.run(tmux, ["-S", socket, "capture-pane", "-p"], timeout: 5))?.standardOutput ?? ""
  }

  /// The lines of the prompts file.
  func promptLines() -> [String] {
    let text = (try? String(contentsOfFile: promptsPath, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// The JSON objects in announce's log.
  func logEntries() -> [[String: Any]] {
    let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// Polls until `condition` holds, at most `timeout` seconds; whether it held.
  func wait(timeout: Double = 15, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
  }

  /// Does `action`, then waits until the shell shows a prompt after it: a prompt line
  /// below the lines there were before. Whether one came within `timeout` seconds.
  ///
  /// A prompt is drawn only when no command runs in the foreground, so the prompt line
  /// means that whatever `action` typed has finished.
  func waitForPrompt(timeout: Double = 15, after action: () -> Void) -> Bool {
    let before = promptLines().count
    action()
    return wait(timeout: timeout) {
      promptLines().dropFirst(before).contains { $0.hasPrefix("prompt ") }
    }
  }

  /// Waits for the first prompt, then runs one command and waits for the prompt after
  /// it, so that the prompts fish draws more than once while it starts are all behind us.
  func waitUntilReady(timeout: Double = 15) -> Bool {
    guard wait(timeout: timeout, until: { promptLines().contains { $0.hasPrefix("prompt ") } })
    else { return false }
    return waitForPrompt(timeout: timeout) { type("echo ready >> \"$PROMPTS\"") }
  }

  /// Stops this session's tmux server and removes its directory.
  func close() {
    _ = try? Command.run(tmux, ["-S", socket, "kill-server"], timeout: 5)
    if ProcessInfo.processInfo.environment["ANNOUNCE_KEEP_TEST_STACKS"] != "1" {
      try? FileManager.default.removeItem(atPath: directory)
    }
  }
}
