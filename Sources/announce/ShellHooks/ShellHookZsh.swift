extension ShellHook {
  /// zsh: preexec notes the start and the line; a precmd function placed first takes
  /// the status. zsh gives every precmd function, and the prompt, the command's own `$?`
  /// and `pipestatus`, so the function returns 0: a status of its own would close a shell
  /// with ERR_EXIT and run TRAPZERR a second time. A line that HIST_IGNORE_SPACE keeps
  /// out of the history is passed on empty, so it is named "the command".
  static func zsh(announce: String) -> String {
    """
    # announce: speak when a command that ran long finishes. From: eval "$(announce init zsh)"
    if [[ -o interactive ]] && zmodload zsh/datetime 2>/dev/null; then
      typeset -g __announce_bin=\(announce)
      typeset -g __announce_start=
      typeset -g __announce_line=
      typeset -g __announce_minimum_text=
      typeset -g __announce_minimum=\(HookThreshold.milliseconds(of: ""))
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
          if [[ ${ANNOUNCE_MIN_SECONDS-} != "$__announce_minimum_text" ]]; then
            __announce_minimum_text=${ANNOUNCE_MIN_SECONDS-}
            __announce_minimum=$("$__announce_bin" hook-threshold -- "$__announce_minimum_text" 2>/dev/null) || __announce_minimum=
          fi
          [[ -n $__announce_minimum && $__announce_minimum != *[^0-9]* ]] || __announce_minimum=0
          if (( milliseconds >= __announce_minimum )); then
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
}
