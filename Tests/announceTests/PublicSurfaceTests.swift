import Foundation
import Testing

/// The public API of AnnouncerCore stays what a library user needs to speak an announcement
/// and learn its outcome: every public declaration is a promise kept across releases, so the
/// promise is kept small, and what exists for the command, tests and benchmarks is `package`.
/// Counted as declarations whose line begins with `public` or `open` (issue #37: 150 or fewer).
@Suite struct PublicSurfaceTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  /// The public declarations of the Swift files under `folder`.
  static func publicDeclarations(under folder: String) -> Int {
    let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".swift") }.reduce(0) { count, file in
      let text = (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? ""
      return count
        + text.split(separator: "\n").filter { line in
          let trimmed = line.drop { $0 == " " }
          return trimmed.hasPrefix("public ") || trimmed.hasPrefix("open ")
        }.count
    }
  }

  /// A ratchet: the count may fall, never grow. Lower it when a declaration becomes `package`;
  /// raise it only for something a library user needs, with a line in CHANGELOG.md.
  @Test func announcerCoreHasNoMorePublicDeclarationsThanToday() {
    let count = Self.publicDeclarations(under: Self.root + "/Sources/AnnouncerCore")
    #expect(count > 0)
    #expect(
      count <= 132, "\(count) public declarations in AnnouncerCore; make what the command needs `package`")
  }
}
