import AnnouncerCore
import Glibc
import Testing

@testable import announce

/// Lines that stayed English under another locale (issue #46): each is now said in the
/// language asked for, and under C as before.
@Suite struct LanguageLeakTests {
  static let languages = ["de", "fr", "es", "pt_BR"]

  @Test(arguments: languages)
  func theVerboseGaveUpReasonIsSaidInTheLanguage(language: String) {
    #expect(CatalogTests.compiled)
    for reason in GiveUpReason.allCases {
      #expect(EventDescription.explanation(of: reason, in: .english) == reason.explanation)
      let said = EventDescription.explanation(of: reason, in: .language(language))
      #expect(said != reason.explanation, "\(language): \(reason) is English")
    }
  }

  @Test(arguments: languages)
  func theBrailleKeysAcknowledgementIsSaidInTheLanguage(language: String) {
    #expect(CatalogTests.compiled)
    let acknowledgement = BrailleAcknowledgement(
      id: AnnouncementID(1), text: "Saved", key: "routing key 3", time: .milliseconds(1500))
    #expect(
      acknowledgement.verboseLine(in: .english)
        == "1.50 s: \"Saved\": read on the braille display (routing key 3 pressed)")
    let said = acknowledgement.verboseLine(in: .language(language))
    #expect(!said.contains("read on the braille display"), "\(said)")
    #expect(said.contains("routing key 3"))
  }

  @Test(arguments: languages)
  func aForwardOverSSHIsSaidInTheLanguage(language: String) {
    #expect(CatalogTests.compiled)
    let service = "tcp:localhost:6560" + Announcer.forwardedOverSSH
    #expect(SpeechServiceWords.printed(service, in: .english) == service)
    let said = SpeechServiceWords.printed(service, in: .language(language))
    #expect(said.hasPrefix("tcp:localhost:6560, "))
    #expect(!said.contains("forwarded over SSH"), "\(said)")
    #expect(EnglishOriginals.english(of: said) == service)
    #expect(SpeechServiceWords.printed("tcp:localhost:6561", in: .language(language)) == "tcp:localhost:6561")
  }

  @Test(arguments: languages)
  func theSystemsReasonsAnnounceNamesAreSaidInTheLanguageAndRememberedInEnglish(language: String) {
    #expect(CatalogTests.compiled)
    #expect(SystemReason.english(ENOTDIR) == "Not a directory")
    let said = SystemReason.printed(ENOTDIR, in: .language(language))
    #expect(said != "Not a directory")
    #expect(EnglishOriginals.english(of: said) == "Not a directory")
    #expect(SystemReason.printed(ENOTDIR, in: .english) == "Not a directory")
  }
}
