/// The text of `announce init tmux`: tmux configuration that speaks the alerts of windows
/// nobody looks at, through `announce tmux-alert`.
///
/// tmux 3.3a runs an `alert-*` hook only where the matching `*-action` applies (any,
/// other), and `bell-action any`, the default, includes the window being looked at, so
/// each hook first asks `#{window_active_clients}`: a window some client shows is never
/// spoken. The check is a format (`if-shell -F`), so a window that tmux alerts at every
/// output costs no process. A BEL is output too, so a bell also raises activity in the
/// same instant; activity is not spoken while the window's bell flag is up. tmux counts
/// making a window in the background as activity, so a `window-linked` hook notes the
/// time in ``createdOption``, and activity and silence are spoken only for output at
/// least ``newWindowSeconds`` later. Silence is spoken only after activity since the
/// user last looked (`#{window_activity_flag}`), otherwise every idle window would be
/// announced `monitor-silence` seconds after the configuration is loaded.
///
/// The window and session names are user text (`new-window -n` keeps newlines), so
/// they reach `/bin/sh` inside single quotes, with each `'` turned into `'"'"'` by the
/// format itself; tmux's `#{q:}` leaves newlines and `~` unquoted. Each user value goes
/// in the same word as its option (`--session=-work`), so that no value, not even one
/// that starts with `-`, can be read as an option. The hooks sit at
/// index ``hookIndex`` of each hook array, so the user's own hooks stay, and sourcing
/// the text twice installs them once.
enum TmuxHooks {
  /// The index of announce's command in the `alert-bell`, `alert-activity`,
  /// `alert-silence` and `window-linked` hook arrays.
  static let hookIndex = 47
  /// The window option that holds the time of a window's last activity when it was
  /// made or linked into a session where nobody looks at it, in seconds since 1970; 0
  /// when someone does, and tmux raises no alert for it.
  static let createdOption = "@announce-created"
  /// Activity and silence are spoken only for output this many seconds or more after
  /// ``createdOption``: tmux 3.3a counts making a window as activity, and a new shell's
  /// first prompt comes within a second.
  static let newWindowSeconds = 2
  /// The `monitor-silence` seconds the text sets.
  static let silenceSeconds = 30

  /// The configuration, calling the announce at `announce`.
  static func configuration(announce: String) -> String {
    let program = doubleQuotedForTmux(formatEscaped(ShellHook.quotedForPOSIXShell(announce)))
    func speak(_ kind: TmuxAlertKind) -> String {
      "run-shell -b \"\(program) tmux-alert \(kind.rawValue) --server #{pid} --window #{window_id}"
        + " --index #{window_index} --interval=\(shellQuoted("@announce-interval"))"
        + " --session=\(shellQuoted("session_name")) --sessions #{n:#{S:x}}"
        + " -- \(shellQuoted("window_name")) </dev/null >/dev/null 2>&1 || :\""
    }
    let unseen = "#{?window_active_clients,0,1}"
    let notNew =
      "#{e|>=:#{e|-:#{window_activity},#{?\(createdOption),#{\(createdOption)},0}},\(newWindowSeconds)}"
    return """
      # announce: speak the alerts of tmux windows you are not looking at. From: announce init tmux
      # Keep it: announce init tmux >> ~/.tmux.conf    Apply it now: announce init tmux | tmux source-file -
      # Turn it off: tmux set-hook -gu 'alert-bell[\(hookIndex)]' \\; set-hook -gu 'alert-activity[\(hookIndex)]' \\; set-hook -gu 'alert-silence[\(hookIndex)]' \\; set-hook -gu 'window-linked[\(hookIndex)]'
      set -wg monitor-bell on
      set -wg monitor-activity on
      # Seconds without output after which a window that showed activity is announced; 0 turns it off.
      set -wg monitor-silence \(silenceSeconds)
      # Each kind of alert is said at most once per window in this many seconds; set -w changes one window.
      set -g @announce-interval \(Int(TmuxAlert.defaultInterval))
      set-hook -g 'window-linked[\(hookIndex)]' { set -Fw \(createdOption) '#{?window_active_clients,0,#{window_activity}}' }
      set-hook -g 'alert-bell[\(hookIndex)]' {
        if-shell -F '\(unseen)' {
          \(speak(.bell))
        }
      }
      set-hook -g 'alert-activity[\(hookIndex)]' {
        if-shell -F '#{?#{||:#{window_active_clients},#{window_bell_flag}},0,\(notNew)}' {
          \(speak(.activity))
        }
      }
      set-hook -g 'alert-silence[\(hookIndex)]' {
        if-shell -F '#{?window_active_clients,0,#{&&:#{window_activity_flag},\(notNew)}}' {
          \(speak(.silence))
        }
      }

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
