/// The start of a tmux alert's sentence in one language: "Bell in window 3", "Bell in
/// window 3 of session work". Each is a whole phrase, so that a language can order it.
struct TmuxAlertWords {
  var wording: Wording

  /// Where `kind` happened: window `index`, of `session` when the server has several.
  func place(of kind: TmuxAlertKind, index: Int, session: String?) -> String {
    let phrase =
      switch (kind, session == nil) {
      case (.bell, true): wording.localized("Bell in window {index}")
      case (.bell, false): wording.localized("Bell in window {index} of session {session}")
      case (.activity, true): wording.localized("Activity in window {index}")
      case (.activity, false): wording.localized("Activity in window {index} of session {session}")
      case (.silence, true): wording.localized("Silence in window {index}")
      case (.silence, false): wording.localized("Silence in window {index} of session {session}")
      }
    return phrase.replacingBytes(of: "{index}", with: String(index))
      .replacingBytes(of: "{session}", with: session ?? "")
  }
}
