/// The key binding of `announce init SHELL --replay-key KEY`: the key starts
/// `announce replay --aloud` in the background, detached and silent, so that the prompt
/// is not held, and leaves the line being edited as it was. It uses the hook's
/// `__announce_bin`, so it follows the hook in the printed text.
enum ReplayBinding {
  /// Whether `key` can be written into the binding as it is: one or more keys in the
  /// shells' common notation, and nothing a shell would expand or read as the end of a
  /// quoted string. A key is a letter, digit or one of `-[]_,.;/=@`, or `~` but not first; `\e` (Escape);
  /// `^` and a letter or one of `[]_@?` (Control); or `\C-`, `\M-` or `\c` and a key
  /// (Control, Meta). Any other `\`, as in `\e\`, which quoted the closing `"` of
  /// bash's `bind` and broke every shell start-up, is refused.
  static func accepts(_ key: String) -> Bool {
    guard !key.isEmpty, key.count <= 32, key.unicodeScalars.allSatisfy(\.isASCII) else { return false }
    // `~` ends a function key such as `\e[24~` (F12); at the start, fish would expand it.
    var rest = Substring(key)
    while !rest.isEmpty {
      if rest.first == "~", rest.startIndex != key.startIndex {
        rest = rest.dropFirst()
        continue
      }
      guard let after = keyEnd(rest) else { return false }
      rest = after
    }
    return true
  }

  /// What follows the first key of `text`; `nil` when `text` does not start with one.
  private static func keyEnd(_ text: Substring) -> Substring? {
    guard let first = text.first else { return nil }
    let plain = "-[]_,.;/=@"
    if first == "\\" {
      let escape = text.dropFirst()
      if escape.hasPrefix("e") { return escape.dropFirst() }
      if escape.hasPrefix("C-") || escape.hasPrefix("M-") { return keyEnd(escape.dropFirst(2)) }
      if escape.hasPrefix("c") { return keyEnd(escape.dropFirst()) }
      return nil
    }
    if first == "^" {
      guard let next = text.dropFirst().first, next.isLetter || "[]_@?".contains(next) else { return nil }
      return text.dropFirst(2)
    }
    return first.isLetter || first.isNumber || plain.contains(first) ? text.dropFirst() : nil
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
