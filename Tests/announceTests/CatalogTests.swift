import AnnouncerCore
import AnnouncerTesting
import Foundation
import Testing

@testable import announce

/// The catalogs of `po/`: complete, valid for msgfmt, with the placeholders of their
/// messages, and up to date with the sources (issue #38).
@Suite struct CatalogTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  /// The languages of po/LINGUAS.
  static let languages: [String] = {
    let text = (try? String(contentsOfFile: root + "/po/LINGUAS", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
  }()

  /// Compiles the catalogs where this test binary, like announce, finds them; once.
  static let compiled: Bool = {
    guard let directory = MessageCatalogs.directory else { return false }
    return run(root + "/scripts/build-catalogs", [directory]).status == 0
  }()

  static func run(_ path: String, _ arguments: [String]) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    guard (try? process.run()) != nil else { return (127, "could not run \(path)") }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  @Test func everyLanguageHasACatalogAndTheFourAreThere() {
    #expect(Set(Self.languages).isSuperset(of: ["de", "fr", "es", "pt_BR"]))
    for language in Self.languages {
      #expect(FileManager.default.fileExists(atPath: "\(Self.root)/po/\(language).po"), "\(language)")
    }
  }

  @Test func theTemplateHoldsEveryMessageMarkedInTheSources() {
    let check = Self.run(Self.root + "/scripts/extract-messages", ["--check"])
    #expect(check.status == 0, "\(check.output)")
  }

  @Test(arguments: languages)
  func aCatalogPassesMsgfmtCheck(language: String) {
    let check = Self.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", "\(Self.root)/po/\(language).po"])
    #expect(check.status == 0, "\(check.output)")
  }

  @Test(arguments: languages)
  func aCatalogTranslatesEveryMessageWithItsPlaceholders(language: String) throws {
    let template = try POFile(path: Self.root + "/po/announce.pot")
    let catalog = try POFile(path: "\(Self.root)/po/\(language).po")
    for message in template.messages {
      let translated = catalog.messages.first { $0.id == message.id && $0.plural == message.plural }
      guard let translated else {
        Issue.record("\(language) lacks \"\(message.id)\"")
        continue
      }
      #expect(!translated.isFuzzy, "\(language): \"\(message.id)\" is fuzzy")
      #expect(
        !translated.strings.isEmpty && translated.strings.allSatisfy { !$0.isEmpty },
        "\(language): \"\(message.id)\"")
      for string in translated.strings {
        #expect(
          POFile.placeholders(string) == POFile.placeholders(message.id),
          "\(language): \"\(string)\" for \"\(message.id)\"")
      }
    }
    #expect(catalog.messages.count == template.messages.count, "\(language) has messages the template lacks")
  }

  /// `announce replay` puts its own consequence in place of the outcome log's, found in
  /// the translated sentence by the translation of the English phrase: every sentence
  /// with the phrase must have the phrase's translation word for word.
  @Test(arguments: languages)
  func theOutcomeLogsConsequencesAreTranslatedWordForWordInItsSentences(language: String) throws {
    let catalog = try POFile(path: "\(Self.root)/po/\(language).po")
    for phrase in ["so an outcome was not logged", "so outcomes are not logged"] {
      let translated = try #require(catalog.messages.first { $0.id == phrase }?.strings.first)
      let sentences = catalog.messages.filter { $0.id != phrase && $0.id.contains(phrase) }
      #expect(!sentences.isEmpty)
      for sentence in sentences {
        #expect(
          sentence.strings.allSatisfy { $0.contains(translated) },
          "\(language): \"\(sentence.strings)\" lacks \"\(translated)\"")
      }
    }
  }

  @Test func aSentenceIsMadeInTheLanguageAskedForWithItsPluralForms() {
    #expect(Self.compiled)
    #expect(SpokenDuration.text(seconds: 125, in: .language("de")) == "2 Minuten und 5 Sekunden")
    #expect(SpokenDuration.text(seconds: 3660, in: .language("fr")) == "1 heure et 1 minute")
    #expect(SpokenDuration.text(seconds: 0.2, in: .language("es")) == "menos de un segundo")
    #expect(SpokenDuration.text(seconds: 1, in: .language("pt_BR")) == "1 segundo")
    #expect(SpokenDuration.text(seconds: 125, in: .english) == "2 minutes 5 seconds")
  }

  @Test func theHooksSentenceIsGermanAndTheUsersOwnFormatStillWins() {
    #expect(Self.compiled)
    let finished = FinishedCommand(commandLine: "make", status: 2, seconds: 20)
    let german = Wording.language("de")
    #expect(
      HookMessage.sentence(for: finished, settings: HookSettings(), in: german)
        == "make ist mit Status 2 fehlgeschlagen, Laufzeit 20 Sekunden")
    var own = HookSettings()
    own.failureFormat = "{command}: Fehler nach {duration}"
    #expect(HookMessage.sentence(for: finished, settings: own, in: german) == "make: Fehler nach 20 Sekunden")
    let unnamed = FinishedCommand(commandLine: "", status: 0, seconds: 20)
    #expect(
      HookMessage.sentence(for: unnamed, settings: HookSettings(), in: .language("fr"))
        == "La commande a terminé en 20 secondes")
  }

  @Test func theSentenceOfWhenDoneIsSaidInTheLanguageAskedFor() throws {
    #expect(Self.compiled)
    let sleeper = Process()
    sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
    sleeper.arguments = ["60"]
    try sleeper.run()
    defer { sleeper.terminate() }
    let process = try WatchedProcess.open(sleeper.processIdentifier)
    let started = try #require(process.started)
    let pid = sleeper.processIdentifier
    #expect(
      process.sentence(endedAt: started + .seconds(65), in: .language("es"))
        == "El proceso \(pid), sleep, terminó tras 1 minuto y 5 segundos.")
    #expect(
      process.sentence(endedAt: started + .seconds(7200), in: .language("pt_BR"))
        == "O processo \(pid), sleep, terminou após 2 horas.")
  }

  @Test func theSpokenLanguageFollowsTheOptionThenTheLocale() {
    #expect(Self.compiled)
    let german = SpokenLanguage(explicit: nil, voiceName: nil, environment: ["LANG": "de_DE.UTF-8"])
    #expect(german == SpokenLanguage(catalog: "de", voiceLanguage: "de"))
    let brazilian = SpokenLanguage(
      explicit: nil, voiceName: nil, environment: ["LC_ALL": "pt_BR.UTF-8", "LANG": "de_DE.UTF-8"])
    #expect(brazilian == SpokenLanguage(catalog: "pt_BR", voiceLanguage: "pt-BR"))
    let listed = SpokenLanguage(
      explicit: nil, voiceName: nil, environment: ["LANGUAGE": "it:fr", "LANG": "it_IT.UTF-8"])
    #expect(listed == SpokenLanguage(catalog: "fr", voiceLanguage: "fr"))
    // C and POSIX: today's English, the voice left alone, whatever LANGUAGE says.
    for c in ["C", "POSIX", "C.UTF-8"] {
      let plain = SpokenLanguage(explicit: nil, voiceName: nil, environment: ["LANG": c, "LANGUAGE": "de"])
      #expect(plain == SpokenLanguage(catalog: nil, voiceLanguage: nil), "\(c)")
    }
    #expect(SpokenLanguage(explicit: nil, voiceName: nil, environment: [:]) == SpokenLanguage())
    // No catalog: English, said with the language English.
    let italian = SpokenLanguage(explicit: nil, voiceName: nil, environment: ["LANG": "it_IT.UTF-8"])
    #expect(italian == SpokenLanguage(catalog: nil, voiceLanguage: "en"))
    // A chosen voice is not asked for another language.
    let voiced = SpokenLanguage(explicit: nil, voiceName: "Anna", environment: ["LANG": "de_DE.UTF-8"])
    #expect(voiced == SpokenLanguage(catalog: "de", voiceLanguage: nil))
    // --language wins over the locale; the voice already speaks it.
    let french = SpokenLanguage(explicit: "fr", voiceName: nil, environment: ["LANG": "de_DE.UTF-8"])
    #expect(french == SpokenLanguage(catalog: "fr", voiceLanguage: nil))
    let italianOption = SpokenLanguage(explicit: "it", voiceName: nil, environment: ["LANG": "de_DE.UTF-8"])
    #expect(italianOption == SpokenLanguage(catalog: nil, voiceLanguage: "en"))
    #expect(SpokenLanguage(explicit: "en-GB", voiceName: nil, environment: [:]) == SpokenLanguage())
  }

  @Test func theFloodSummaryIsMadeByTheWordingTheCommandGives() {
    #expect(Self.compiled)
    let summary = SpokenLanguage(explicit: "fr", voiceName: nil, environment: [:]).floodSummary
    #expect(summary.sentence(1) == "1 message ignoré")
    #expect(summary.sentence(12) == "12 messages ignorés")
    #expect(summary.language == nil)
    let fallback = SpokenLanguage(explicit: "it", voiceName: nil, environment: [:]).floodSummary
    #expect(fallback.sentence(12) == "12 messages skipped")
    #expect(fallback.language == "en")
  }

  /// gettext answers a message no catalog has with the pointer it was given: the answer
  /// must be copied while that pointer is still alive (this crashed `announce history`).
  @Test func aMessageNoCatalogHasComesBackWhole() {
    #expect(Self.compiled)
    for index in 0..<200 {
      let message = "No catalog has message number \(index), which is long enough to live on the heap: ü"
      #expect(Wording.printed.localized(message) == message)
      #expect(Wording.language("de").localized(message) == message)
      #expect(Wording.printed.localized(message, plural: message + "s", count: 2) == message + "s")
    }
  }

  @Test func aLookupInAnotherLanguageLeavesTheProcesssLocaleAndLanguageAsTheyWere() {
    #expect(Self.compiled)
    let before = getenv("LANGUAGE").map { String(cString: $0) }
    _ = Wording.language("de").localized("the command")
    #expect(getenv("LANGUAGE").map { String(cString: $0) } == before)
    #expect(Wording.english.localized("the command") == "the command")
  }
}

/// A gettext catalog as the tests read it: each message's id, plural and strings.
struct POFile {
  struct Message {
    var id = ""
    var plural: String?
    var strings: [String] = []
    var isFuzzy = false
  }

  var messages: [Message] = []

  init(path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for block in text.components(separatedBy: "\n\n") {
      var message = Message()
      var field = ""
      var values: [String: String] = [:]
      for line in block.split(separator: "\n").map(String.init) {
        if line.hasPrefix("#,") && line.contains("fuzzy") { message.isFuzzy = true }
        if line.hasPrefix("#") { continue }
        if line.hasPrefix("\"") {
          values[field, default: ""] += Self.unquoted(line)
          continue
        }
        guard let space = line.firstIndex(of: " ") else { continue }
        field = String(line[..<space])
        values[field] = Self.unquoted(String(line[line.index(after: space)...]))
      }
      guard let id = values["msgid"], !id.isEmpty else { continue }
      message.id = id
      message.plural = values["msgid_plural"]
      message.strings =
        message.plural == nil
        ? [values["msgstr"] ?? ""]
        : values.keys.filter { $0.hasPrefix("msgstr[") }.sorted().map { values[$0] ?? "" }
      messages.append(message)
    }
  }

  static func unquoted(_ literal: String) -> String {
    var text = literal.trimmingCharacters(in: .whitespaces)
    if text.hasPrefix("\"") { text.removeFirst() }
    if text.hasSuffix("\"") { text.removeLast() }
    return text.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\n", with: "\n")
      .replacingOccurrences(of: "\\\\", with: "\\")
  }

  /// The `{word}` placeholders of `text`, sorted.
  static func placeholders(_ text: String) -> [String] {
    let regex = try? NSRegularExpression(pattern: "\\{[a-z]+\\}")
    let range = NSRange(text.startIndex..., in: text)
    return (regex?.matches(in: text, range: range) ?? []).compactMap {
      Range($0.range, in: text).map { String(text[$0]) }
    }
    .sorted()
  }
}
