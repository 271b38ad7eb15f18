import Glibc
import Synchronization

/// announce's catalogs, in gettext's format: the domain `announce`, in `share/locale` beside the
/// folder of the executable, so that one binary finds them under any prefix: the
/// package's `/usr`, the default `/usr/local` and `PREFIX="$HOME/.local"`. A development
/// build finds them the same way in its build folder, where `make catalogs` puts them
/// (`.build/<triple>/share/locale` beside `.build/<triple>/debug`).
enum MessageCatalogs {
  /// gettext's name for announce's messages, the name of each catalog file.
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

  /// The catalogs read so far, each read once, when a sentence first needs its language.
  /// Reading one changes nothing in the process. A missing one is looked for again next
  /// time: the languages asked for are those ``LanguageName/catalog(for:)`` found.
  private static let read = Mutex<[String: CatalogFile]>([:])

  /// The catalog of `language`, a gettext name such as `de` or `pt_BR`; `nil` when
  /// there is none.
  static func catalog(_ language: String) -> CatalogFile? {
    read.withLock { read in
      if let known = read[language] { return known }
      guard language.utf8.count <= LanguageName.longest, !language.contains("/") else { return nil }
      let catalog = directory.flatMap { CatalogFile(path: "\($0)/\(language)/LC_MESSAGES/\(domain).mo") }
      read[language] = catalog
      return catalog
    }
  }

  /// Whether there is a catalog for `language`, a gettext name such as `de` or `pt_BR`.
  static func has(_ language: String) -> Bool {
    guard let directory else { return false }
    return access("\(directory)/\(language)/LC_MESSAGES/\(domain).mo", R_OK) == 0
  }

  /// Whether `locale` is C, POSIX or C with a character set (`C.UTF-8`), under which
  /// the messages are said as written.
  static func isC(_ locale: String) -> Bool {
    locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
  }
}
