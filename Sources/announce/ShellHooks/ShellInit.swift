import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce init bash|zsh|fish`: prints the shell hook that announces long commands.
struct ShellInit: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce init",
    abstract:
      "Print a shell hook that announces each command that ran long when it finishes, or tmux's alerts.",
    discussion: """
      bash: eval "$(announce init bash)"; zsh: eval "$(announce init zsh)"; fish: \
      announce init fish | source. Put the line in ~/.bashrc, ~/.zshrc or \
      ~/.config/fish/config.fish. ANNOUNCE_MIN_SECONDS (default 10), ANNOUNCE_IGNORE, \
      ANNOUNCE_FORMAT_OK, ANNOUNCE_FORMAT_FAIL, ANNOUNCE_ON_INTERRUPT, ANNOUNCE_ICON_OK and \
      ANNOUNCE_ICON_FAIL change what is announced; see man announce. For a server reached \
      over SSH, "announce init ssh HOST" prints the ~/.ssh/config lines that make it speak here. \
      "announce init tmux" prints tmux configuration that speaks the bell, activity and \
      silence of windows you are not looking at: announce init tmux >> ~/.tmux.conf.
      """)

  /// A shell that `init` has a hook for.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  /// What `init` prints the configuration of: a shell, or tmux.
  enum Target: String, ExpressibleByArgument, CaseIterable {
    case bash, zsh, fish, tmux

    /// The shell, or `nil` for tmux.
    var shell: Shell? { Shell(rawValue: rawValue) }
  }

  @Argument(help: "The shell: bash, zsh or fish; or tmux, for its window alerts.")
  var shell: Target

  @Option(
    name: .customLong("replay-key"),
    help: ArgumentHelp(
      "Also bind this key to announce replay, in the shell's own notation, such as \\er for Alt-R.",
      valueName: "key"))
  var replayKey: String?

  func validate() throws {
    guard let replayKey else { return }
    if shell.shell == nil {
      throw ValidationError("--replay-key binds a key in a shell; give bash, zsh or fish, not tmux.")
    }
    if !ReplayBinding.accepts(replayKey) {
      throw ValidationError(
        "--replay-key \"\(replayKey)\" is not a key the binding can name; write it as the shell does, such as \\er for Alt-R."
      )
    }
  }

  func run() throws {
    let announce = ShellHook.executablePath()
    var text =
      shell.shell.map { ShellHook.script(for: $0, announce: announce) }
      ?? TmuxHooks.configuration(announce: announce)
    if let shell = shell.shell, let replayKey {
      text += ReplayBinding.script(for: shell, key: replayKey)
    }
    print(text, terminator: "")
  }
}

/// The text of the shell hooks.
///
/// The shell side stays small: it notes when a command starts, and when the prompt
/// comes back it compares the time against `ANNOUNCE_MIN_SECONDS` in whole seconds.
/// It hands the hook's variables to the process by name, so that they work whether or
/// not they are exported.
/// Only a command that may qualify starts `announce hook-finished`, in the background,
/// fully detached and silent, so the prompt never waits for it. Everything else, the
/// exact threshold, the ignore list, the words and the speech, happens there.
enum ShellHook {
  /// The most characters of a command line that the hook passes on. Linux refuses to
  /// start a program with one argument over 128 KiB (E2BIG), and only the first words
  /// are spoken; 4096 characters of UTF-8 stay far below that.
  static let maxCommandLineCharacters = 4096

  /// This program's own path, so the hook runs the same announce that wrote it.
  static func executablePath() -> String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
  }

  /// The hook for `shell`, calling the announce at `announce`.
  static func script(for shell: ShellInit.Shell, announce: String) -> String {
    switch shell {
    case .bash: bash(announce: quotedForPOSIXShell(announce))
    case .zsh: zsh(announce: quotedForPOSIXShell(announce))
    case .fish: fish(announce: quotedForFish(announce))
    }
  }

  /// `text` in single quotes for bash and zsh.
  static func quotedForPOSIXShell(_ text: String) -> String {
    "'" + text.replacingBytes(of: "'", with: "'\\''") + "'"
  }

  /// `text` in single quotes for fish.
  static func quotedForFish(_ text: String) -> String {
    "'"
      + text.replacingBytes(of: "\\", with: "\\\\").replacingBytes(of: "'", with: "\\'")
      + "'"
  }

  /// bash 5 or later: PS0 notes the start without running anything, and a function at
  /// the front of PROMPT_COMMAND, which bash runs with `$?` and PIPESTATUS saved and
  /// restored, takes the command's status before anything else can change it. From
  /// bash 5.1 PROMPT_COMMAND becomes an array with the user's own commands as its
  /// second element, because bash restores PIPESTATUS between the elements. The
  /// command line comes from the history, read in the background; when the command was
  /// not saved there (HISTCONTROL=ignorespace, HISTIGNORE), it is named "the command".
  /// The function runs as `__announce_precmd && :`, so that its status, which is the
  /// command's for what follows it in a bash 5.0 PROMPT_COMMAND string, never counts
  /// as a failure for `set -e` or an ERR trap. The threshold is read in base 10
  /// (`10#`), so that `08` is 8 and not an octal error.
  private static func bash(announce: String) -> String {
    """
    # announce: speak when a command that ran long finishes. From: eval "$(announce init bash)"
    if [[ $- == *i* ]]; then
    if (( BASH_VERSINFO[0] < 5 )); then
      echo "announce: the shell hook needs bash 5 or later; this is bash $BASH_VERSION." >&2
    else
    __announce_bin=\(announce)
    __announce_start=
    __announce_history=${HISTCMD-}
    __announce_precmd() {
      local announce_status=$? announce_pipe_status="${PIPESTATUS[*]}"
      if [[ -n ${__announce_start-} ]]; then
        local now=${EPOCHREALTIME//[!0-9]/}
        local milliseconds=$(( (now - __announce_start) / 1000 ))
        local minimum=${ANNOUNCE_MIN_SECONDS:-10}
        minimum=${minimum%%.*}
        [[ -n $minimum && $minimum != *[!0-9]* ]] || minimum=0
        (( ${#minimum} < 10 )) || minimum=999999999
        if (( milliseconds >= 10#$minimum * 1000 )); then
          local saved=0
          if [[ ${HISTCMD-} != "${__announce_history-}" ]]; then
            saved=1
          elif [[ -o history && -z ${HISTIGNORE-} && ${HISTCONTROL-} != *ignorespace* && ${HISTCONTROL-} != *ignoreboth* ]]; then
            saved=1
          fi
          (__announce_finished "$announce_status" "$milliseconds" "$saved" "$announce_pipe_status" &)
        fi
      fi
      __announce_start=
      __announce_history=${HISTCMD-}
      export ANNOUNCE_SHELL_HOOK="bash"$'\\t'"$$"$'\\t'"${ANNOUNCE_MIN_SECONDS-}"$'\\t'"${ANNOUNCE_IGNORE-}"
      return "$announce_status"
    }
    __announce_finished() {
      local line=
      if [[ $3 == 1 ]]; then line=$(fc -ln -0 2>/dev/null); fi
      line=${line:0:\(maxCommandLineCharacters)}
      ANNOUNCE_MIN_SECONDS=${ANNOUNCE_MIN_SECONDS-} ANNOUNCE_IGNORE=${ANNOUNCE_IGNORE-} \\
        ANNOUNCE_FORMAT_OK=${ANNOUNCE_FORMAT_OK-} ANNOUNCE_FORMAT_FAIL=${ANNOUNCE_FORMAT_FAIL-} \\
        ANNOUNCE_ON_INTERRUPT=${ANNOUNCE_ON_INTERRUPT-} \\
        ANNOUNCE_ICON_OK=${ANNOUNCE_ICON_OK-} ANNOUNCE_ICON_FAIL=${ANNOUNCE_ICON_FAIL-} \\
        exec "$__announce_bin" hook-finished --status "$1" --milliseconds "$2" --pipe-status "$4" -- "$line" </dev/null >/dev/null 2>&1
    }
    if [[ ${PS0-} != *__announce_start* ]]; then
      PS0='${__announce_bin:0:$((__announce_start=${EPOCHREALTIME//[!0-9]/},0))}'"${PS0-}"
    fi
    if [[ -v PROMPT_COMMAND && ${PROMPT_COMMAND@a} == *a* ]]; then
      if [[ " ${PROMPT_COMMAND[*]} " != *" __announce_precmd "* ]]; then
        PROMPT_COMMAND=("__announce_precmd && :" "${PROMPT_COMMAND[@]}")
      fi
    elif [[ ${PROMPT_COMMAND-} != *__announce_precmd* ]]; then
      if (( BASH_VERSINFO[0] > 5 || BASH_VERSINFO[1] >= 1 )); then
        PROMPT_COMMAND=("__announce_precmd && :" ${PROMPT_COMMAND:+"$PROMPT_COMMAND"})
      else
        PROMPT_COMMAND="__announce_precmd && :${PROMPT_COMMAND:+$'\\n'$PROMPT_COMMAND}"
      fi
    fi
    fi
    fi

    """
  }

  /// zsh: preexec notes the start and the line; a precmd function placed first takes
  /// the status. zsh gives every precmd function, and the prompt, the command's own `$?`
  /// and `pipestatus`, so the function returns 0: a status of its own would close a shell
  /// with ERR_EXIT and run TRAPZERR a second time. A line that HIST_IGNORE_SPACE keeps
  /// out of the history is passed on empty, so it is named "the command".
  private static func zsh(announce: String) -> String {
    """
    # announce: speak when a command that ran long finishes. From: eval "$(announce init zsh)"
    if [[ -o interactive ]] && zmodload zsh/datetime 2>/dev/null; then
      typeset -g __announce_bin=\(announce)
      typeset -g __announce_start=
      typeset -g __announce_line=
      __announce_preexec() {
        __announce_start=$EPOCHREALTIME
        __announce_line=${1[1,\(maxCommandLineCharacters)]}
        # Kept out of the history with HIST_IGNORE_SPACE: not spoken or logged either.
        if [[ -o histignorespace && $1 == [[:space:]]* ]]; then __announce_line=; fi
      }
      __announce_precmd() {
        local announce_status=$? announce_pipe_status="${pipestatus[*]}"
        if [[ -n $__announce_start ]]; then
          local -i milliseconds=$(( (EPOCHREALTIME - __announce_start) * 1000 ))
          local minimum=${ANNOUNCE_MIN_SECONDS:-10}
          minimum=${minimum%%.*}
          [[ -n $minimum && $minimum != *[^0-9]* ]] || minimum=0
          (( ${#minimum} < 10 )) || minimum=999999999
          if (( milliseconds >= 10#$minimum * 1000 )); then
            (ANNOUNCE_MIN_SECONDS=${ANNOUNCE_MIN_SECONDS-} ANNOUNCE_IGNORE=${ANNOUNCE_IGNORE-} \\
              ANNOUNCE_FORMAT_OK=${ANNOUNCE_FORMAT_OK-} ANNOUNCE_FORMAT_FAIL=${ANNOUNCE_FORMAT_FAIL-} \\
              ANNOUNCE_ON_INTERRUPT=${ANNOUNCE_ON_INTERRUPT-} \\
              ANNOUNCE_ICON_OK=${ANNOUNCE_ICON_OK-} ANNOUNCE_ICON_FAIL=${ANNOUNCE_ICON_FAIL-} \\
              "$__announce_bin" hook-finished --status $announce_status --milliseconds $milliseconds --pipe-status "$announce_pipe_status" -- "$__announce_line" </dev/null >/dev/null 2>&1 &)
          fi
        fi
        __announce_start=
        export ANNOUNCE_SHELL_HOOK="zsh"$'\\t'"$$"$'\\t'"${ANNOUNCE_MIN_SECONDS-}"$'\\t'"${ANNOUNCE_IGNORE-}"
        return 0
      }
      autoload -Uz add-zsh-hook
      add-zsh-hook preexec __announce_preexec
      precmd_functions=(__announce_precmd ${precmd_functions:#__announce_precmd})
    fi

    """
  }

  /// fish: the fish_postexec event has the line and the status, and CMD_DURATION the time.
  /// fish keeps `$status` and `$pipestatus` for the prompt whatever a handler does.
  /// fish never saves a line that starts with a space in its history; such a line is
  /// passed on empty, so it is named "the command".
  private static func fish(announce: String) -> String {
    """
    # announce: speak when a command that ran long finishes. From: announce init fish | source
    if status is-interactive
        set -g __announce_bin \(announce)
        function __announce_mark_active --on-event fish_prompt
            set -gx ANNOUNCE_SHELL_HOOK (printf 'fish\\t%s\\t%s\\t%s' $fish_pid "$ANNOUNCE_MIN_SECONDS" "$ANNOUNCE_IGNORE")
        end
        function __announce_postexec --on-event fish_postexec
            set -l announce_statuses $status $pipestatus
            set -l announce_status $announce_statuses[1]
            set -l minimum 10
            if test -n "$ANNOUNCE_MIN_SECONDS"
                set minimum (string replace -r '\\\\..*' '' -- "$ANNOUNCE_MIN_SECONDS")
                string match -qr '^[0-9]+$' -- "$minimum"; or set minimum 0
            end
            string match -qr '^[0-9]{1,9}$' -- "$minimum"; or set minimum 999999999
            if test "$CMD_DURATION" -ge "$minimum"000
                # fish keeps a line that starts with a space out of its history: it is
                # not spoken or logged either.
                set -l line (string sub -l \(maxCommandLineCharacters) -- $argv[1])
                string match -qr '^\\s' -- $argv[1]; and set line ''
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

/// The key binding of `announce init SHELL --replay-key KEY`: the key starts
/// `announce replay --aloud` in the background, detached and silent, so that the prompt
/// is not held, and leaves the line being edited as it was. It uses the hook's
/// `__announce_bin`, so it follows the hook in the printed text.
enum ReplayBinding {
  /// Whether `key` can be written into the binding as it is: printable ASCII without
  /// quotes, spaces or characters that a shell would expand, such as `\er`, `^[r`, `\C-xr`.
  static func accepts(_ key: String) -> Bool {
    !key.isEmpty && key.count <= 32
      && key.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "\\^-[]_,.;/=@".unicodeScalars.contains(scalar))
      }
  }

  /// The lines that bind `key` in `shell`.
  ///
  /// bash runs a `bind -x` function without touching READLINE_LINE, zsh a widget that
  /// leaves BUFFER alone, and fish a function bound with `bind`, which keeps the
  /// command line; each starts the replay in a subshell, or disowned, so that no job
  /// message is printed.
  static func script(for shell: ShellInit.Shell, key: String) -> String {
    switch shell {
    case .bash:
      """
      # announce: \(key) speaks again what was missed. From: announce init bash --replay-key \(key)
      if [[ $- == *i* && -n ${__announce_bin-} ]]; then
        __announce_replay() { ("$__announce_bin" replay --aloud </dev/null >/dev/null 2>&1 &); }
        bind -x '"\(key)": __announce_replay'
      fi

      """
    case .zsh:
      """
      # announce: \(key) speaks again what was missed. From: announce init zsh --replay-key \(key)
      if [[ -o interactive && -n ${__announce_bin-} ]]; then
        __announce_replay() { ("$__announce_bin" replay --aloud </dev/null >/dev/null 2>&1 &) }
        zle -N __announce_replay
        bindkey '\(key)' __announce_replay
      fi

      """
    case .fish:
      """
      # announce: \(key) speaks again what was missed. From: announce init fish --replay-key \(key)
      if status is-interactive; and set -q __announce_bin
          function __announce_replay
              command $__announce_bin replay --aloud </dev/null >/dev/null 2>&1 &
              disown $last_pid 2>/dev/null
          end
          bind \(key) __announce_replay
      end

      """
    }
  }
}
