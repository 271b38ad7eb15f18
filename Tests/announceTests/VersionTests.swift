import Foundation
import Testing

@testable import announce

/// The version is written once for people (the `VERSION` file) and once for the binary.
@Suite struct VersionTests {
  @Test func theBinaryVersionIsTheVersionFile() throws {
    let file = try PackageFile.text("VERSION")
    #expect(file.trimmingCharacters(in: .whitespacesAndNewlines) == announceVersion)
  }
}
