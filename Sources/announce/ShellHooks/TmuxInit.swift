/// The text of `announce init tmux`: tmux configuration that speaks the alerts of windows
/// nobody looks at, through `announce tmux-alert`.
///
/// tmux 3.3a runs an `alert-*` hook only where the matching `*-action` applies (any,
/// other), and `bell-action any`, the default, includes the window being looked at, so
/// each hook first asks `#{window_active_clients}`: a window some client shows is never
/// spoken. The check is a format (`if-shell -F`), so a window that tmux alerts at every
/// output costs no process. A BEL is output too, so a bell also raises activity in the
/// same instant; activity is not spoken while the window's bell flag is up. Silence is
/// spoken only after activity since the user last looked (`#{window_activity_flag}`):
/// otherwise every idle window would be announced `monitor-silence` seconds after the
/// configuration is loaded.
///
/// The window and session names are user text (`new-window -n` keeps newlines), so
/// they reach `/bin/sh` inside single quotes, with each `'` turned into `'"'"'` by the
/// format itself; tmux's `#{q:}` leaves newlines and `~` unquoted. The hooks sit at
/// index ``hookIndex`` of each hook array, so the user's own hooks stay, and sourcing
/// the text twice installs them once.
enum TmuxHooks {
  /// The index of announce's command in the `alert-bell`, `alert-activity` and
  /// `alert-silence` hook arrays.
  static let hookIndex = 47
  /// The `monitor-silence` seconds the text sets.
  static let silenceSeconds = 30

  /// The configuration, calling the announce at `announce`.
  static func configuration(announce: String) -> String {
    let program = doubleQuotedForTmux(formatEscaped(ShellHook.quotedForPOSIXShell(announce)))
    func hook(_ kind: TmuxAlertKind, when condition: String) -> String {
      let command =
        "\(program) tmux-alert \(kind.rawValue) --server #{pid} --window #{window_id} --index #{window_index}"
        + " --interval \(shellQuoted("@announce-interval")) --session \(shellQuoted("session_name"))"
        + " --sessions #{n:#{S:x}} -- \(shellQuoted("window_name")) </dev/null >/dev/null 2>&1 || :"
      return """
        set-hook -g 'alert-\(kind.rawValue)[\(hookIndex)]' {
          if-shell -F '\(condition)' {
            run-shell -b "\(command)"
          }
        }
        """
    }
    return """
      # announce: speak the alerts of tmux windows you are not looking at. From: announce init tmux
      # Keep it: announce init tmux >> ~/.tmux.conf    Apply it now: announce init tmux | tmux source-file -
      # Turn it off: tmux set-hook -gu 'alert-bell[\(hookIndex)]' \\; set-hook -gu 'alert-activity[\(hookIndex)]' \\; set-hook -gu 'alert-silence[\(hookIndex)]'
      set -wg monitor-bell on
      set -wg monitor-activity on
      # Seconds without output after which a window that showed activity is announced; 0 turns it off.
      set -wg monitor-silence \(silenceSeconds)
      # Each kind of alert is said at most once per window in this many seconds; set -w changes one window.
      set -g @announce-interval \(Int(TmuxAlert.defaultInterval))
      \(hook(.bell, when: "#{?window_active_clients,0,1}"))
      \(hook(.activity, when: "#{?#{||:#{window_active_clients},#{window_bell_flag}},0,1}"))
      \(hook(.silence, when: "#{?window_active_clients,0,#{window_activity_flag}}"))

      """
  }

  /// The tmux variable `name` as one word for `/bin/sh`, in a tmux double-quoted string:
  /// in single quotes, each `'` replaced by `'"'"'` when tmux expands it.
  static func shellQuoted(_ name: String) -> String {
    "'#{s/'/'\\\"'\\\"'/:\(name)}'"
  }

  /// `text` with each `#` doubled, so that tmux's format expansion leaves it as it is.
  static func formatEscaped(_ text: String) -> String {
    text.replacingBytes(of: "#", with: "##")
  }

  /// `text` for the inside of a tmux double-quoted string, where `\`, `"` and `$` are special.
  static func doubleQuotedForTmux(_ text: String) -> String {
    text.replacingBytes(of: "\\", with: "\\\\").replacingBytes(of: "\"", with: "\\\"")
      .replacingBytes(of: "$", with: "\\$")
  }
}
