import Foundation

/// What the language tests need and a fresh machine lacks: locales other than C (a
/// fresh Debian has only C, C.utf8 and POSIX), made with localedef from Debian's
/// `locales` into a private LOCPATH, never the system's; and the catalogs of `po/`,
/// compiled where the built announce finds them.
enum TestLanguages {
  /// The private LOCPATH, with de_DE.UTF-8, fr_FR.UTF-8 and it_IT.UTF-8 (a language
  /// announce has no catalog for); made once per test process.
  static let localePath: Result<String, StackError> = {
    let path = NSTemporaryDirectory() + "announce-locales-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for locale in ["de_DE", "fr_FR", "it_IT"] {
      // localedef exits with 1 for mere warnings; the locale is made all the same.
      _ = try? Command.run(
        "/usr/bin/localedef", ["-i", locale, "-f", "UTF-8", "\(path)/\(locale).UTF-8"], timeout: 120)
      guard FileManager.default.fileExists(atPath: "\(path)/\(locale).UTF-8/LC_MESSAGES") else {
        return .failure(StackError("localedef could not make \(locale).UTF-8; install Debian's locales."))
      }
    }
    return .success(path)
  }()

  /// Compiles `po/` beside the built announce, once per test process.
  static let catalogs: Result<Void, StackError> = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let folder = URL(fileURLWithPath: Command.announce).deletingLastPathComponent()
      .appendingPathComponent("../share/locale").standardized.path
    guard
      let built = try? Command.run(root.path + "/scripts/build-catalogs", [folder]), built.status == 0
    else { return .failure(StackError("scripts/build-catalogs failed; install Debian's gettext.")) }
    return .success(())
  }()

  /// The environment for a run under `locale`: only that locale's variable, with the
  /// private LOCPATH and the catalogs in place.
  static func environment(_ base: [String: String], locale: String) throws -> [String: String] {
    try catalogs.get()
    var environment = base.filter { !["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"].contains($0.key) }
    environment["LANG"] = locale
    environment["LOCPATH"] = try localePath.get()
    return environment
  }
}
