import AnnouncerCore
import Glibc

extension TurnsUnavailable {
  /// ``message`` in the language of the locale, for a line printed for a person. The core
  /// knows no gettext, so its problems are worded here; each English message is the
  /// core's sentence word for word (`SpeechdConnectWordsTests` holds them to it).
  var printedMessage: String {
    let text: String
    switch problem {
    case .cannotMake(let errno):
      text = localized(
        "Taking turns with other announce processes is off because {directory} cannot be made ({reason}); make its parent writable or set XDG_RUNTIME_DIR to a private directory.",
        ["directory": directory, "reason": SystemReason.printed(errno)])
    case .notADirectory:
      text = localized(
        "Taking turns with other announce processes is off because {directory} is not a directory; remove it or set XDG_RUNTIME_DIR to a private directory.",
        ["directory": directory])
    case .ownedBy(let uid):
      text = localized(
        "Taking turns with other announce processes is off because {directory} belongs to another user (uid {uid}); have it removed or set XDG_RUNTIME_DIR to a private directory.",
        ["directory": directory, "uid": String(uid)])
    case .openToOthers(let mode):
      text = localized(
        "Taking turns with other announce processes is off because others can use {directory} (mode {mode}); run chmod 700 on it.",
        ["directory": directory, "mode": String(mode, radix: 8)])
    }
    EnglishOriginals.remember(text, english: message)
    return text
  }
}
