import AnnouncerCore
import Foundation
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// Doctor's check of the `ANNOUNCE_` variables: every one the code reads, through the
/// parser a run uses.
@Suite struct DoctorSettingsCheckTests {
  /// A value of each checked variable that a run cannot use.
  static let badValues: [String: String] = [
    "ANNOUNCE_TIMEOUT": "soon", "ANNOUNCE_PRIORITY": "loud", "ANNOUNCE_MAX_QUEUE": "0",
    "ANNOUNCE_RATE": "500", "ANNOUNCE_LANGUAGE": "en us", "ANNOUNCE_VOICE": "No Such",
    "ANNOUNCE_MODULE": "espeak ng", "ANNOUNCE_HISTORY": "of", "ANNOUNCE_BRAILLE": "maybe",
    "ANNOUNCE_NOTIFY": "maybe",
    "ANNOUNCE_MIN_SECONDS": "ten", "ANNOUNCE_ON_INTERRUPT": "yes", "ANNOUNCE_ICON_OK": "two words",
    "ANNOUNCE_ICON_FAIL": "two words",
  ]
  /// The variables whose every value is valid: free text, or written by the hook itself.
  static let anyValue: Set<String> = [
    "ANNOUNCE_IGNORE", "ANNOUNCE_FORMAT_OK", "ANNOUNCE_FORMAT_FAIL", "ANNOUNCE_SHELL_HOOK",
  ]

  /// In order; a named list, since Swift 6.0.3 crashes on a closure inside `@Test(arguments:)`.
  static let sortedBadValues = badValues.sorted { $0.key < $1.key }

  @Test(arguments: sortedBadValues)
  func aValueARunCannotUseNamesItsVariableAndIsBroken(variable: String, value: String) {
    let lines = SettingsCheck(environment: ["HOME": "\(testRoot)/home/a", variable: value]).run()
    #expect(lines.count == 1, "\(lines.map(\.sentence))")
    let line = try? #require(lines.first)
    #expect(line?.finding == .somethingElseBroken)
    #expect(line?.sentence.hasPrefix(variable) == true, "\(line?.sentence ?? "")")
    #expect(line?.sentence.contains(value) == true, "\(line?.sentence ?? "")")
    #expect(line?.facts.first?.1 == .text(variable))
    #expect(DoctorOutcome.of(lines.map(\.finding)) == .somethingElseBroken)
  }

  @Test func everyVariableTheSourcesReadIsChecked() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    var read: Set<String> = []
    let files = try #require(FileManager.default.enumerator(atPath: sources.path))
    // The test-only targets read variables of their own, such as the property tests' seed.
    let testsOnly = ["AnnouncerTesting/", "PropertyTesting/"]
    for case let file as String in files
    where file.hasSuffix(".swift") && !testsOnly.contains(where: { file.hasPrefix($0) }) {
      let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
      let pattern = try NSRegularExpression(pattern: "\"(ANNOUNCE_[A-Z_]+)\"")
      for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        if let range = Range(match.range(at: 1), in: text) { read.insert(String(text[range])) }
      }
    }
    #expect(read.count > 10, "\(read)")
    let unchecked = read.subtracting(Self.badValues.keys).subtracting(Self.anyValue)
    #expect(unchecked.isEmpty, "doctor does not check \(unchecked.sorted())")
  }

  @Test func everyBadVariableIsNamedNotOnlyTheFirst() {
    let lines = SettingsCheck(environment: ["ANNOUNCE_VOICE": "a b", "ANNOUNCE_HISTORY": "of"]).run()
    let named = lines.compactMap { line -> String? in
      if case .text(let variable)? = line.facts.first?.1 { return variable }
      return nil
    }
    #expect(Set(named) == ["ANNOUNCE_VOICE", "ANNOUNCE_HISTORY"])
    #expect(lines.allSatisfy { $0.sentence.contains("every shell hook and tmux alert fails with status 64") })
  }

  @Test func validValuesAreListedAndFine() {
    let lines = SettingsCheck(environment: [
      "ANNOUNCE_RATE": "20", "ANNOUNCE_MODULE": "espeak-ng", "ANNOUNCE_SHELL_HOOK": "bash\t1",
      "HOME": "\(testRoot)/h",
    ]).run()
    #expect(lines.count == 1)
    #expect(lines.first?.finding == .fine)
    #expect(
      lines.first?.sentence == "The ANNOUNCE_ variables set are all valid: ANNOUNCE_MODULE and ANNOUNCE_RATE."
    )
    #expect(
      SettingsCheck(environment: [:]).run().first?.sentence.hasPrefix("No ANNOUNCE_ variable is set") == true)
  }

  @Test func theTestSentenceHasTheUsersValidSettingsAndLeavesOutTheBadOnes() {
    let environment = [
      "ANNOUNCE_MODULE": "espeak-ng", "ANNOUNCE_VOICE": "bad voice", "ANNOUNCE_LANGUAGE": "de",
      "ANNOUNCE_RATE": "-20", "ANNOUNCE_TIMEOUT": "0",
    ]
    let check = SpokenTestCheck(
      explicit: nil, environment: environment,
      settings: SettingsCheck.usableAnnouncement(environment: environment))
    let spoken = check.announcement
    #expect(spoken.text == SpokenTestCheck.sentence)
    #expect(spoken.voice.outputModule == "espeak-ng")
    #expect(spoken.voice.language == "de")
    #expect(spoken.voice.rate == -20)
    #expect(spoken.voice.voiceName == nil)
    #expect(spoken.retryTimeout == Announcement.defaultRetryTimeout)
    let line = check.line(
      for: .spoken(attempts: 1, duration: .seconds(1)), took: .seconds(2), voice: spoken.voice)
    #expect(
      line.sentence
        == "The test sentence was played to the end with the output module espeak-ng, the language de and the rate -20, in 2 seconds."
    )
  }

  @Test func aVoiceSpeechDispatcherDoesNotHaveIsNamed() async {
    let lists = FixedVoiceListing(
      modules: ["espeak-ng"], voices: [SynthesisVoice(name: "Alex", language: "en", variant: "none")])
    let missing = await SpokenTestCheck.voiceLine(for: VoiceOptions(voiceName: "Gone"), lists: lists)
    #expect(missing?.finding == .somethingElseBroken)
    #expect(missing?.sentence.contains("has no voice \"Gone\"") == true, "\(missing?.sentence ?? "")")
    let module = await SpokenTestCheck.voiceLine(for: VoiceOptions(outputModule: "festival"), lists: lists)
    #expect(module?.sentence.contains("festival") == true, "\(module?.sentence ?? "")")
    #expect(await SpokenTestCheck.voiceLine(for: VoiceOptions(voiceName: "Alex"), lists: lists) == nil)
    #expect(await SpokenTestCheck.voiceLine(for: VoiceOptions(), lists: lists) == nil)
    // A list cut short ends a run with 69, so it is no pass for doctor either.
    var silent = lists
    silent.fails = true
    let unread = await SpokenTestCheck.voiceLine(for: VoiceOptions(voiceName: "Alex"), lists: silent)
    #expect(unread?.finding == .speechUnavailable)
    #expect(unread?.sentence.hasPrefix("Your output module, voice and language could not be checked") == true)
  }
}

/// A daemon's lists, fixed.
struct FixedVoiceListing: VoiceListing {
  var modules: [String]
  var voices: [SynthesisVoice]
  /// Whether the voices cannot be read, as from a daemon that went silent.
  var fails = false
  func defaultOutputModule() async throws(SpeechdConnectError) -> String { modules.first ?? "" }
  func outputModules() async throws(SpeechdConnectError) -> [String] { modules }
  func synthesisVoices(module: String?) async throws(SpeechdConnectError) -> [SynthesisVoice] {
    if fails {
      throw .notAnswering(
        .unixSocket(path: "\(testRoot)/run/s.sock", isUserDefault: false), within: .seconds(2))
    }
    return voices
  }
}
