import AnnouncerCore
import Testing

@testable import announce

/// One rule for a language's name, wherever it is given (issue #46): `--language`,
/// `ANNOUNCE_LANGUAGE` for the command and for the hooks, and doctor.
@Suite struct LanguageChoiceTests {
  static let invalid = [
    "../../x", "", "en us", "d", "deutsch", "de_DE@", "de_DE.", "de__DE", "é", "en-toolongsubtag",
  ]
  static let normalized: [(String, String)] = [
    ("pt_br", "pt-BR"), ("de_DE@euro", "de-DE"), ("de_DE.UTF-8@euro", "de-DE"), ("EN", "en"),
    ("en-gb-x-rp", "en-GB-x-rp"), ("zh-yue", "zh-yue"), ("fr", "fr"),
  ]
  static let huge = String(repeating: "x", count: 100_000)

  @Test(arguments: normalized)
  func aLanguageIsSentAsSpeechDispatcherNamesIt(given: String, sent: String) throws {
    #expect(LanguageName.normalized(given) == sent)
    let command = try Announce.parse(["--language", given, "Saved"]).request(environment: [:])
    #expect(command.defaults.voice.language == sent)
    let variable = try Announce.parse(["Saved"]).request(environment: ["ANNOUNCE_LANGUAGE": given])
    #expect(variable.defaults.voice.language == sent)
    let hook = try AnnounceRequest.hook(
      speaking: "make finished", soundIcon: nil, environment: ["ANNOUNCE_LANGUAGE": given])
    #expect(hook.defaults.voice.language == sent)
    let lines = SettingsCheck(environment: ["ANNOUNCE_LANGUAGE": given]).run()
    #expect(!lines.contains { $0.sentence.hasPrefix("ANNOUNCE_LANGUAGE") }, "\(lines.map(\.sentence))")
  }

  @Test(arguments: invalid + [huge])
  func anInvalidLanguageIsAUsageErrorForTheCommandTheHooksAndDoctor(value: String) {
    #expect(!LanguageName.isValid(value))
    guard !value.isEmpty else { return }
    #expect(throws: (any Error).self) {
      try Announce.parse(["--language", value, "Saved"]).request(environment: [:])
    }
    do {
      _ = try AnnounceRequest.hook(
        speaking: "make finished", soundIcon: nil, environment: ["ANNOUNCE_LANGUAGE": value])
      Issue.record("the hook took ANNOUNCE_LANGUAGE=\(value.prefix(20))")
    } catch {
      #expect(Announce.exitCode(for: error).rawValue == 64)
      let message = Announce.message(for: error)
      #expect(message.hasPrefix("ANNOUNCE_LANGUAGE="))
      // A value of any length is quoted by its start, so the log's record stays small.
      #expect(message.utf8.count < 300, "\(message.prefix(100))")
    }
    let lines = SettingsCheck(environment: ["ANNOUNCE_LANGUAGE": value]).run()
    #expect(
      lines.contains { $0.finding == .somethingElseBroken && $0.sentence.hasPrefix("ANNOUNCE_LANGUAGE=") })
  }

  @Test func anErrorRecordIsCutToItsLimit() {
    let long = String(repeating: "ä", count: 5000)
    let cut = OutcomeLog.cut(long, toBytes: OutcomeLog.longestError)
    #expect(cut.utf8.count <= OutcomeLog.longestError)
    #expect(cut.hasSuffix("…"))
    #expect(OutcomeLog.cut("short", toBytes: OutcomeLog.longestError) == "short")
  }

  @Test func theLocalesLanguageFollowsGettextsOrderWhetherOrNotTheLocaleIsInstalled() {
    #expect(CatalogTests.compiled)
    #expect(LocaleLanguage(environment: ["LANG": "de_DE.UTF-8"]) == .catalog("de"))
    #expect(LocaleLanguage(environment: ["LANG": "de_AT.UTF-8@euro"]) == .catalog("de"))
    #expect(
      LocaleLanguage(environment: ["LANG": "pt_BR.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"]) == .catalog("fr"))
    #expect(LocaleLanguage(environment: ["LANG": "it_IT.UTF-8", "LANGUAGE": "it:es"]) == .catalog("es"))
    #expect(LocaleLanguage(environment: ["LANG": "C.UTF-8", "LANGUAGE": "de"]) == .c)
    #expect(LocaleLanguage(environment: ["LC_ALL": "C", "LANG": "de_DE.UTF-8"]) == .c)
    #expect(LocaleLanguage(environment: [:]) == .c)
    #expect(LocaleLanguage(environment: ["LANG": "en_US.UTF-8", "LANGUAGE": "en:de"]) == .other)
    #expect(LocaleLanguage(environment: ["LANG": "../../x"]) == .other)
  }
}

/// Numbers as each language writes them, and counts with their plural forms (issue #46).
@Suite struct NumberWordsTests {
  static let fractions: [(String, String)] = [
    ("de", "1,5 Sekunden"), ("fr", "1,5 seconde"), ("es", "1,5 segundos"), ("pt_BR", "1,5 segundo"),
  ]

  @Test(arguments: fractions)
  func aFractionHasTheLanguagesDecimalCommaAndPluralForm(language: String, seconds: String) {
    #expect(CatalogTests.compiled)
    #expect(NumberWords.seconds(1.5, in: .language(language)) == seconds)
    #expect(NumberWords.decimal(1.5, in: .language(language)) == "1,5")
    #expect(EnglishOriginals.english(of: seconds) == "1.5 seconds")
  }

  @Test func englishKeepsItsPointAndWholeNumbersHaveNone() {
    #expect(CatalogTests.compiled)
    #expect(NumberWords.seconds(1.5, in: .english) == "1.5 seconds")
    #expect(NumberWords.seconds(1, in: .english) == "1 second")
    #expect(NumberWords.seconds(1, in: .language("de")) == "1 Sekunde")
    #expect(NumberWords.seconds(2.5, in: .language("fr")) == "2,5 secondes")
    #expect(NumberWords.decimal(3, in: .language("de")) == "3")
    #expect(NumberWords.pluralCount(0.5) == 0)
    #expect(NumberWords.pluralCount(1) == 1)
    #expect(NumberWords.pluralCount(1.5) == 0)
    #expect(NumberWords.pluralCount(2.5) == 2)
  }

  @Test func aModuleWithOneVoiceSaysVoice() {
    let mismatch = VoiceMismatch.noVoice("Anna", module: "espeak-ng", voiceCount: 1)
    #expect(
      mismatch.sentence(howToList: { "announce --list-voices --module \($0)" }).contains("its 1 voice with"))
    #expect(mismatch.printedSentence.contains("its 1 voice with"))
  }
}
