import CIntl
import Glibc

/// announce's gettext catalogs: the domain `announce`, in `share/locale` beside the
/// folder of the executable, so that one binary finds them under any prefix: the
/// package's `/usr`, the default `/usr/local` and `PREFIX="$HOME/.local"`. A development
/// build finds them the same way in its build folder, where `make catalogs` puts them
/// (`.build/<triple>/share/locale` beside `.build/<triple>/debug`).
enum MessageCatalogs {
  /// gettext's name for announce's messages.
  static let domain = "announce"

  /// The folder of the catalogs, `LL/LC_MESSAGES/announce.mo` inside; `nil` when the
  /// executable's path cannot be read.
  static let directory: String? = {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = executable.lastIndex(of: "/") else { return nil }
    return executable[..<slash] + "/../share/locale"
  }()

  /// Reads the locale of messages from the environment and binds the domain, once, on
  /// the first lookup; only the messages' category, so that numbers, the character type
  /// and sorting stay as they were.
  static let bound: Bool = {
    setlocale(LC_MESSAGES, "")
    guard let directory else { return false }
    bindtextdomain(domain, directory)
    // A Latin-1 locale would otherwise turn the catalogs' UTF-8 into mojibake.
    bind_textdomain_codeset(domain, "UTF-8")
    return true
  }()

  /// Whether there is a catalog for `language`, a gettext name such as `de` or `pt_BR`.
  static func has(_ language: String) -> Bool {
    guard let directory else { return false }
    return access("\(directory)/\(language)/LC_MESSAGES/\(domain).mo", R_OK) == 0
  }

  /// Whether `locale` is C, POSIX or C with a character set (`C.UTF-8`), under which
  /// gettext answers with the messages as written.
  static func isC(_ locale: String) -> Bool {
    locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
  }
}
