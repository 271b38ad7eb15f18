extension ShellHook {
  /// fish: the fish_postexec event has the line and the status, and CMD_DURATION the time.
  /// fish keeps `$status` and `$pipestatus` for the prompt whatever a handler does.
  /// fish never saves a line that starts with a space in its history, nor any line in
  /// private mode (`fish --private`, which sets `fish_private_mode`); such a line is
  /// passed on empty, so it is named "the command", as bash's `HISTCONTROL=ignorespace` has it.
  static func fish(announce: String) -> String {
    """
    # announce: speak when a command that ran long finishes. From: announce init fish | source
    if status is-interactive
        set -g __announce_bin \(announce)
        set -g __announce_minimum_text ''
        set -g __announce_minimum \(HookThreshold.milliseconds(of: ""))
        function __announce_mark_active --on-event fish_prompt
            set -gx ANNOUNCE_SHELL_HOOK (printf 'fish\\t%s\\t%s\\t%s' $fish_pid "$ANNOUNCE_MIN_SECONDS" "$ANNOUNCE_IGNORE")
        end
        function __announce_postexec --on-event fish_postexec
            set -l announce_statuses $status $pipestatus
            set -l announce_status $announce_statuses[1]
            if test "$ANNOUNCE_MIN_SECONDS" != "$__announce_minimum_text"
                set -g __announce_minimum_text "$ANNOUNCE_MIN_SECONDS"
                set -g __announce_minimum (command $__announce_bin hook-threshold -- "$__announce_minimum_text" 2>/dev/null)
            end
            string match -qr '^[0-9]{1,15}$' -- "$__announce_minimum"; or set -g __announce_minimum 0
            if test "$CMD_DURATION" -ge "$__announce_minimum"
                # fish keeps a line that starts with a space, and every line in private
                # mode, out of its history: it is not spoken or logged either.
                set -l line (string sub -l \(maxCommandLineCharacters) -- $argv[1])
                string match -qr '^\\s' -- $argv[1]; and set line ''
                set -q fish_private_mode; and set line ''
                ANNOUNCE_MIN_SECONDS="$ANNOUNCE_MIN_SECONDS" ANNOUNCE_IGNORE="$ANNOUNCE_IGNORE" \\
                    ANNOUNCE_FORMAT_OK="$ANNOUNCE_FORMAT_OK" ANNOUNCE_FORMAT_FAIL="$ANNOUNCE_FORMAT_FAIL" \\
                    ANNOUNCE_ON_INTERRUPT="$ANNOUNCE_ON_INTERRUPT" \\
                    ANNOUNCE_ICON_OK="$ANNOUNCE_ICON_OK" ANNOUNCE_ICON_FAIL="$ANNOUNCE_ICON_FAIL" \\
                    command $__announce_bin hook-finished --status $announce_status --milliseconds $CMD_DURATION --pipe-status "$announce_statuses[2..-1]" -- $line </dev/null >/dev/null 2>&1 &
                disown $last_pid 2>/dev/null
            end
        end
    end

    """
  }
}
