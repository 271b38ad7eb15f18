import Foundation
import AnnouncerCore
import Dispatch
import Testing

extension SpeakingTests {
  /// Names speech-dispatcher does not know are refused, in one sentence that says what it has.
  @Suite struct VoiceNames: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    @Test(arguments: [
      (
        ["--output-module", "nosuchmodule", "Hello"],
        "has no output module \"nosuchmodule\"; it has espeak-ng"
      ),
      (["--voice", "NoSuchVoice", "Hello"], "has no voice \"NoSuchVoice\""),
      (["--language", "xx", "Hello"], "has no voice for the language \"xx\""),
      (["--list-voices", "-o", "nosuchmodule"], "has no output module \"nosuchmodule\"; it has espeak-ng"),
      (["--list-voices", "--language", "zz"], "has no voice for the language \"zz\""),
    ])
    func anUnknownNameIsAUsageErrorOfOneSentence(arguments: [String], says: String) throws {
      let result = try announce(arguments, input: "")
      #expect(result.status == 64, "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
      #expect(result.standardError.contains(says), "\(result.standardError)")
      #expect(result.standardOutput.isEmpty)
    }

    @Test func listingVoicesMatchesLanguagesAsSpeakingDoes() throws {
      let exact = try announce(["--list-voices", "--language", "en-US"], input: "")
      #expect(exact.status == 0, "\(exact.standardError)")
      #expect(!exact.standardOutput.isEmpty)
      // Case is ignored, and a more specific tag finds the voices of its language.
      for tag in ["en-us", "EN", "de-AT"] {
        let listed = try announce(["--list-voices", "--language", tag], input: "")
        #expect(listed.status == 0, "\(tag): \(listed.standardError)")
        #expect(!listed.standardOutput.isEmpty, "\(tag) listed nothing")
      }
    }

    @Test func aVoiceAndLanguageTheModuleListsAreSpoken() throws {
      let listed = try announce(["--list-voices"], input: "")
      // Named first: Swift 6.0's #require misreads the optional chain inside it.
      let firstName = listed.standardOutput.split(separator: "\n").first?.split(separator: "\t").first
      let voice = try #require(firstName)
      let result = try announce(["--voice", String(voice), "--language", "en", "-t", "0", "Hi"], input: "")
      #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func aJSONLineWithAnUnknownNameIsRejectedAndTheOthersAreSpoken() throws {
      let input = """
        {"text": "One", "voice": "NoSuchVoice"}
        {"text": "Two"}
        {"text": "Three", "language": "xx"}

        """
      let result = try announce(["--input", "json", "--json"], input: input)
      #expect(result.status == 65, "\(result.standardError)")
      let events = jsonEvents(result.standardOutput)
      let rejected = events.filter { $0["event"] as? String == "rejected" }
      #expect(rejected.compactMap { $0["line"] as? Int } == [1, 3])
      let spoken = events.filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
      #expect(spoken == ["Two"])
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 2, "\(result.standardError)")
      #expect(lines.first?.hasPrefix("Skipped input line 1: speech-dispatcher's output module") == true)
    }

    /// Every libspeechd call, the safety-net close in `deinit` included, goes through one queue.
    @Test func aClientDroppedWithoutClosingIsClosedOnTheLibspeechdQueue() async throws {
      let daemon = stack.address.replacingOccurrences(of: "unix_socket:", with: "")
      let before = Self.sockets(connectedTo: daemon)
      var client: SpeechdClient? = try await SpeechdClient.connect(
        environment: stack.clientEnvironment())
      let socket = try #require(Self.sockets(connectedTo: daemon).subtracting(before).first)
      // A second client whose daemon leaves libspeechd's first command unanswered holds
      // the libspeechd queue inside spd_open2, as a slow daemon would.
      let slow = try ScriptedSpeechd(modules: ["espeak-ng"], voices: [], holdingLibspeechd: true)
      let second = Task {
        try? await SpeechdClient.connect(environment: ["SPEECHD_ADDRESS": "unix_socket:\(slow.path)"])
      }
      #expect(slow.waitUntilLibspeechdIsHeld())
      client = nil
      // While another libspeechd call holds the queue, the connection must stay open.
      #expect(fcntl(socket, F_GETFD) != -1, "spd_close ran outside the libspeechd queue")
      slow.letLibspeechdGo()
      await second.value?.close()
      _ = client
    }

    /// This process's sockets whose peer is the Unix socket at `path`, found from outside
    /// the client, as any program's could be.
    static func sockets(connectedTo path: String) -> Set<Int32> {
      let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return Set(
        descriptors.compactMap(Int32.init).filter { descriptor in
          var address = sockaddr_un()
          var length = socklen_t(MemoryLayout<sockaddr_un>.size)
          let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
          }
          guard named == 0, address.sun_family == sa_family_t(AF_UNIX) else { return false }
          let peer = withUnsafeBytes(of: address.sun_path) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
          }
          return peer == path
        })
    }
  }
}
