import Foundation
import Testing

@testable import announce

/// The version is written once for people (the `VERSION` file) and once for the binary.
@Suite struct VersionTests {
  @Test func theBinaryVersionIsTheVersionFile() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let file = try String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)
    #expect(file.trimmingCharacters(in: .whitespacesAndNewlines) == announceVersion)
  }
}
