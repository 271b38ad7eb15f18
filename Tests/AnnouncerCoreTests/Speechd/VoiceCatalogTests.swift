import Synchronization
import Testing

@testable import AnnouncerCore

/// A daemon's lists, counting how often they are asked for.
private final class CountingListing: VoiceListing {
  func defaultOutputModule() async -> String { "espeak-ng" }
  let asked = Mutex((modules: 0, voices: [String: Int]()))

  func outputModules() async -> [String] {
    asked.withLock { $0.modules += 1 }
    return ["espeak-ng", "dummy"]
  }

  func synthesisVoices(module: String?, language: String?) async -> [SynthesisVoice] {
    asked.withLock { $0.voices[module ?? "", default: 0] += 1 }
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

  @Test func theVoicesOfALanguageAreThoseItWouldSpeakWith() async {
    let catalog = VoiceCatalog(listing)
    #expect(await catalog.voices(of: nil, speaking: "en-us").map(\.name) == ["English (America)"])
    #expect(await catalog.voices(of: "espeak-ng", speaking: "DE-AT").map(\.name) == ["German"])
    #expect(await catalog.voices(of: nil, speaking: nil).count == 2)
    #expect(await catalog.voices(of: nil, speaking: "fr").isEmpty)
    #expect(listing.asked.withLock { $0.voices["espeak-ng"] } == 1)
  }

  @Test func anUnknownModuleIsOneSentenceNamingTheModulesThereAre() async {
    let catalog = VoiceCatalog(listing)
    #expect(
      await catalog.problem(with: VoiceOptions(outputModule: "nosuchmodule"))
        == "speech-dispatcher has no output module \"nosuchmodule\"; it has espeak-ng and dummy.")
    #expect(await catalog.problem(with: VoiceOptions(outputModule: "dummy")) == nil)
  }

  @Test func anUnknownVoiceOfTheDefaultModuleIsRefused() async {
    let catalog = VoiceCatalog(listing)
    let problem = await catalog.problem(with: VoiceOptions(voiceName: "NoSuchVoice"))
    #expect(problem?.contains("output module \"espeak-ng\" has no voice \"NoSuchVoice\"") == true)
    #expect(await catalog.problem(with: VoiceOptions(voiceName: "German")) == nil)
  }

  @Test func aLanguageIsAcceptedInAMoreOrLessSpecificForm() async {
    let catalog = VoiceCatalog(listing)
    for accepted in ["en", "EN-us", "de", "de-AT"] {
      #expect(await catalog.problem(with: VoiceOptions(language: accepted)) == nil, "\(accepted)")
    }
    let problem = await catalog.problem(with: VoiceOptions(language: "xx"))
    #expect(problem?.contains("has no voice for the language \"xx\"") == true)
  }

  @Test func aModuleThatListsNoVoicesAcceptsAnyVoice() async {
    let catalog = VoiceCatalog(listing)
    #expect(await catalog.problem(with: VoiceOptions(voiceName: "x", outputModule: "dummy")) == nil)
  }

  @Test func theDaemonIsAskedOncePerRunAndOncePerModule() async {
    let catalog = VoiceCatalog(listing)
    for _ in 0..<5 {
      _ = await catalog.problem(with: VoiceOptions(voiceName: "German", outputModule: "espeak-ng"))
      _ = await catalog.problem(with: VoiceOptions(language: "xx"))
      _ = await catalog.problem(with: VoiceOptions(voiceName: "x", outputModule: "dummy"))
    }
    let asked = listing.asked.withLock { $0 }
    #expect(asked.modules == 1)
    #expect(asked.voices == ["espeak-ng": 1, "dummy": 1])
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
