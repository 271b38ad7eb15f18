extension ShellHook {
  /// bash 5 or later: PS0 notes the start without running anything, and a function at
  /// the front of PROMPT_COMMAND, which bash runs with `$?` and PIPESTATUS saved and
  /// restored, takes the command's status before anything else can change it. From
  /// bash 5.1 PROMPT_COMMAND becomes an array with the user's own commands as its
  /// second element, because bash restores PIPESTATUS between the elements. The
  /// command line comes from the history, read in the background; when the command was
  /// not saved there (HISTCONTROL=ignorespace, HISTIGNORE), it is named "the command".
  /// The function runs as `__announce_precmd && :`, so that its status, which is the
  /// command's for what follows it in a bash 5.0 PROMPT_COMMAND string, never counts
  /// as a failure for `set -e` or an ERR trap. The threshold is in milliseconds from
  /// `announce hook-threshold`, asked once for each value of ANNOUNCE_MIN_SECONDS.
  static func bash(announce: String) -> String {
    """
    # announce: speak when a command that ran long finishes. From: eval "$(announce init bash)"
    if [[ $- == *i* ]]; then
    if (( BASH_VERSINFO[0] < 5 )); then
      echo \(tooOldBash) >&2
    else
    __announce_bin=\(announce)
    __announce_start=
    __announce_history=${HISTCMD-}
    __announce_minimum_text=
    __announce_minimum=\(HookThreshold.milliseconds(of: ""))
    __announce_precmd() {
      local announce_status=$? announce_pipe_status="${PIPESTATUS[*]}"
      if [[ -n ${__announce_start-} ]]; then
        local now=${EPOCHREALTIME//[!0-9]/}
        local milliseconds=$(( (now - __announce_start) / 1000 ))
        if [[ ${ANNOUNCE_MIN_SECONDS-} != "${__announce_minimum_text-}" ]]; then
          __announce_minimum_text=${ANNOUNCE_MIN_SECONDS-}
          __announce_minimum=$("$__announce_bin" hook-threshold -- "$__announce_minimum_text" 2>/dev/null) || __announce_minimum=
        fi
        [[ -n ${__announce_minimum-} && $__announce_minimum != *[!0-9]* ]] || __announce_minimum=0
        if (( milliseconds >= __announce_minimum )); then
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

  /// The words for a bash older than 5, in the language of the locale `announce init
  /// bash` runs under, quoted for bash around the running bash's `$BASH_VERSION`.
  static var tooOldBash: String {
    // TRANSLATORS: {version} is bash's version, such as 4.4.20(1)-release.
    let sentence = localized("announce: the shell hook needs bash 5 or later; this is bash {version}.")
    let parts = sentence.components(separatedBy: "{version}")
    return parts.map(quotedForPOSIXShell).joined(separator: "\"$BASH_VERSION\"")
  }
}
