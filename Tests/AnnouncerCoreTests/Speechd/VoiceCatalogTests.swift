import Synchronization
import Testing

@testable import AnnouncerCore
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// A daemon's lists, counting how often they are asked for; it stops answering on request.
private final class CountingListing: VoiceListing {
  let asked = Mutex((modules: 0, voices: [String: Int](), defaults: 0))
  let answers = Mutex(true)
  static let silent = SpeechdConnectError.notAnswering(
    .unixSocket(path: "\(testRoot)/run/user/7/speech-dispatcher/speechd.sock", isUserDefault: true),
    within: .seconds(2))

  func defaultOutputModule() async throws(SpeechdConnectError) -> String {
    asked.withLock { $0.defaults += 1 }
    guard answers.withLock({ $0 }) else { throw Self.silent }
    return "espeak-ng"
  }

  func outputModules() async throws(SpeechdConnectError) -> [String] {
    asked.withLock { $0.modules += 1 }
    guard answers.withLock({ $0 }) else { throw Self.silent }
    return ["espeak-ng", "dummy"]
  }

  func synthesisVoices(module: String?) async throws(SpeechdConnectError) -> [SynthesisVoice] {
    asked.withLock { $0.voices[module ?? "", default: 0] += 1 }
    guard answers.withLock({ $0 }) else { throw Self.silent }
    switch module {
    case "espeak-ng":
      return [
        SynthesisVoice(name: "English (America)", language: "en-US", variant: "none"),
        SynthesisVoice(name: "German", language: "de", variant: "none"),
      ]
    default: return []
    }
  }
}

@Suite struct VoiceCatalogTests {
  private let listing = CountingListing()

  @Test func theVoicesOfALanguageAreThoseItWouldSpeakWith() async throws {
    let catalog = VoiceCatalog(listing)
    #expect(try await catalog.voices(of: nil, speaking: "en-us").map(\.name) == ["English (America)"])
    #expect(try await catalog.voices(of: "espeak-ng", speaking: "DE-AT").map(\.name) == ["German"])
    #expect(try await catalog.voices(of: nil, speaking: nil).count == 2)
    #expect(try await catalog.voices(of: nil, speaking: "fr").isEmpty)
    #expect(listing.asked.withLock { $0.voices["espeak-ng"] } == 1)
  }

  @Test func anUnknownModuleIsOneSentenceNamingTheModulesThereAre() async throws {
    let catalog = VoiceCatalog(listing)
    #expect(
      try await catalog.problem(with: VoiceOptions(outputModule: "nosuchmodule"))
        == "speech-dispatcher has no output module \"nosuchmodule\"; it has espeak-ng and dummy.")
    #expect(try await catalog.problem(with: VoiceOptions(outputModule: "dummy")) == nil)
  }

  @Test func anUnknownVoiceOfTheDefaultModuleIsRefused() async throws {
    let catalog = VoiceCatalog(listing)
    let problem = try await catalog.problem(with: VoiceOptions(voiceName: "NoSuchVoice"))
    #expect(problem?.contains("output module \"espeak-ng\" has no voice \"NoSuchVoice\"") == true)
    #expect(try await catalog.problem(with: VoiceOptions(voiceName: "German")) == nil)
  }

  @Test func aLanguageIsAcceptedInAMoreOrLessSpecificForm() async throws {
    let catalog = VoiceCatalog(listing)
    for accepted in ["en", "EN-us", "de", "de-AT"] {
      #expect(try await catalog.problem(with: VoiceOptions(language: accepted)) == nil, "\(accepted)")
    }
    let problem = try await catalog.problem(with: VoiceOptions(language: "xx"))
    #expect(problem?.contains("has no voice for the language \"xx\"") == true)
  }

  @Test func aModuleThatListsNoVoicesAcceptsAnyVoice() async throws {
    let catalog = VoiceCatalog(listing)
    #expect(try await catalog.problem(with: VoiceOptions(voiceName: "x", outputModule: "dummy")) == nil)
  }

  @Test func theDaemonIsAskedOncePerRunAndOncePerModule() async throws {
    let catalog = VoiceCatalog(listing)
    for _ in 0..<5 {
      _ = try await catalog.problem(with: VoiceOptions(voiceName: "German", outputModule: "espeak-ng"))
      _ = try await catalog.problem(with: VoiceOptions(language: "xx"))
      _ = try await catalog.problem(with: VoiceOptions(voiceName: "x", outputModule: "dummy"))
    }
    let asked = listing.asked.withLock { $0 }
    #expect(asked.modules == 1)
    #expect(asked.voices == ["espeak-ng": 1, "dummy": 1])
    #expect(asked.defaults == 1)
  }

  @Test func aListCutShortIsAnErrorNotAPassAndIsAskedForAgain() async throws {
    let catalog = VoiceCatalog(listing)
    listing.answers.withLock { $0 = false }
    await #expect(throws: CountingListing.silent) {
      try await catalog.problem(with: VoiceOptions(voiceName: "NoSuchVoice"))
    }
    await #expect(throws: CountingListing.silent) {
      try await catalog.problem(with: VoiceOptions(outputModule: "nosuchmodule"))
    }
    await #expect(throws: CountingListing.silent) { try await catalog.voices(of: "espeak-ng", speaking: nil) }
    listing.answers.withLock { $0 = true }
    let problem = try await catalog.problem(with: VoiceOptions(voiceName: "NoSuchVoice"))
    #expect(problem?.contains("has no voice \"NoSuchVoice\"") == true)
    #expect(try await catalog.problem(with: VoiceOptions(outputModule: "nosuchmodule")) != nil)
  }
}

@Suite struct SynthesisVoiceListTests {
  @Test func aRawVoiceListIsParsedLineByLine() {
    let reply =
      "249-Afrikaans\taf\tnone\r\n249-English (America)+Adam\ten-US\tAdam\r\n249 OK VOICE LIST SENT\r\n"
    #expect(
      SynthesisVoice.parseList(reply) == [
        SynthesisVoice(name: "Afrikaans", language: "af", variant: "none"),
        SynthesisVoice(name: "English (America)+Adam", language: "en-US", variant: "Adam"),
      ])
  }
}
