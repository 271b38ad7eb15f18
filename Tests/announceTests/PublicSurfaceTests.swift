import Foundation
import Testing

/// The public API of AnnouncerCore stays what a library user needs: what exists for the
/// command, tests and benchmarks is `package`. Counted as declarations whose line begins
/// with `public` or `open`; issue #37 aims at 150 or fewer.
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

  /// A ratchet: the count may fall, never grow. Lower it when a declaration becomes `package`.
  @Test func announcerCoreHasNoMorePublicDeclarationsThanToday() {
    let count = Self.publicDeclarations(under: Self.root + "/Sources/AnnouncerCore")
    #expect(count > 0)
    #expect(
      count <= 200, "\(count) public declarations in AnnouncerCore; make what the command needs `package`")
  }
}
