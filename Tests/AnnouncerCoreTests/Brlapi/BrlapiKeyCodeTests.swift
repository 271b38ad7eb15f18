import Testing

@testable import AnnouncerCore

/// Keys are named as brltty names them, from libbrlapi's description of the code: the
/// display's Home key beside Orca 51.1 was reported as `command 29`.
@Suite struct BrlapiKeyCodeTests {
  let command: UInt64 = 0x2000_0000

  @Test func aDescribedKeyHasBrlttysNameInLowerCase() {
    #expect(BrlapiKeyCode.key(command | 29, described: ("HOME", 0)) == .other(name: "home"))
    #expect(BrlapiKeyCode.key(command | 1 << 16 | 3, described: ("ROUTE", 3)) == .other(name: "route 3"))
  }

  @Test func panningKeysPanWhateverTheirDescription() {
    #expect(BrlapiKeyCode.key(command | 24, described: ("FWINRT", 0)) == .panForward)
    #expect(BrlapiKeyCode.key(command | 1, described: ("LNUP", 0)) == .panBack)
    #expect(BrlapiKeyCode.key(command, described: ("NOOP", 0)) == nil)
  }

  @Test func withoutADescriptionAKeyIsNamedByNumber() {
    #expect(BrlapiKeyCode.key(command | 29) == .other(name: "command 29"))
    #expect(BrlapiKeyCode.key(command | 1 << 16 | 3) == .other(name: "route 3"))
  }

  /// The real libbrlapi, when installed, describes the Home key as brltty names it.
  @Test(.enabled(if: Libbrlapi.shared != nil)) func theInstalledLibbrlapiNamesTheHomeKey() throws {
    let library = try #require(Libbrlapi.shared)
    let described = try #require(library.describe(command | 29))
    #expect(BrlapiKeyCode.key(command | 29, described: described) == .other(name: "home"))
  }
}
