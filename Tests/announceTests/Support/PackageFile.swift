import Foundation

/// The package's own files, such as the README and the man page, that tests hold the
/// code to.
enum PackageFile {
  /// The package root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The text of `path`, relative to the package root.
  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }
}
