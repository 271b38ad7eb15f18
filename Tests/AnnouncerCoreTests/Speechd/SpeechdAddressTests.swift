import Foundation
import Testing

@testable import AnnouncerCore
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

@Suite struct SpeechdAddressTests {
  @Test func parsesTheSyntaxOfSpeechdAddress() {
    #expect(
      SpeechdAddress.parse("unix_socket:\(testRoot)/run/s.sock")
        == .unixSocket(path: "\(testRoot)/run/s.sock", isUserDefault: false))
    #expect(SpeechdAddress.parse("inet_socket") == .inetSocket(host: "127.0.0.1", port: 6560))
    #expect(SpeechdAddress.parse("inet_socket:example.org") == .inetSocket(host: "example.org", port: 6560))
    #expect(SpeechdAddress.parse("inet_socket:127.0.0.1:7000") == .inetSocket(host: "127.0.0.1", port: 7000))
  }

  @Test(arguments: ["", "tcp:localhost", "inet_socket:h:notaport", "inet_socket:h:0", "inet_socket:h:1:2"])
  func rejectsWhatIsNotAnAddress(text: String) {
    #expect(SpeechdAddress.parse(text) == nil)
  }

  @Test func anExplicitAddressWinsOverTheEnvironment() throws {
    let environment = [
      "SPEECHD_ADDRESS": "unix_socket:\(testRoot)/from/env", "XDG_RUNTIME_DIR": "\(testRoot)/run/user/7",
    ]
    #expect(
      try SpeechdAddress.resolve("unix_socket:\(testRoot)/explicit", environment: environment)
        == .unixSocket(path: "\(testRoot)/explicit", isUserDefault: false))
    #expect(
      try SpeechdAddress.resolve(nil, environment: environment)
        == .unixSocket(path: "\(testRoot)/from/env", isUserDefault: false))
  }

  @Test func withoutAnyAddressTheUsersDefaultSocketIsUsedAndMayBeSpawned() throws {
    let address = try SpeechdAddress.resolve(nil, environment: ["XDG_RUNTIME_DIR": "\(testRoot)/run/user/7"])
    #expect(
      address
        == .unixSocket(path: "\(testRoot)/run/user/7/speech-dispatcher/speechd.sock", isUserDefault: true))
    #expect(address.isUserDefault)
  }

  @Test func anInvalidEnvironmentAddressNamesTheVariable() {
    #expect(throws: SpeechdConnectError.invalidAddress("bogus", source: "SPEECHD_ADDRESS")) {
      try SpeechdAddress.resolve(nil, environment: ["SPEECHD_ADDRESS": "bogus"])
    }
    let sentence = SpeechdConnectError.invalidAddress("bogus", source: "SPEECHD_ADDRESS").description
    #expect(sentence.contains("SPEECHD_ADDRESS"))
    #expect(sentence.contains("unix_socket:PATH"))
  }

  @Test func theUnreachableSentenceNamesTheAddressTheCauseAndTheFix() {
    let detail =
      "Error: Can't connect to unix socket \(testRoot)/run/x.sock: No such file or directory. Autospawn: Autospawn disabled"
    let error = SpeechdConnectError.unreachable(
      .unixSocket(path: "\(testRoot)/run/x.sock", isUserDefault: false), detail: detail)
    #expect(
      error.description
        == "announce could not reach speech-dispatcher at the unix socket \(testRoot)/run/x.sock: no such file or directory; start speech-dispatcher at that address, or correct the address or SPEECHD_ADDRESS."
    )
    let spawnFailed = SpeechdConnectError.unreachable(
      .unixSocket(path: "\(testRoot)/run/d.sock", isUserDefault: true),
      detail:
        "Error: Can't connect to unix socket \(testRoot)/run/d.sock: Connection refused. Autospawn: Autospawn failed. Spawn error 8: not found"
    )
    #expect(
      spawnFailed.description.contains(
        "connection refused, and starting it failed; install the speech-dispatcher package"))
  }
}
