import AnnouncerCore
import ArgumentParser
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// The command's parsing and validation, in process.
@Suite struct ParsingTests {
  /// Parses `arguments` as the command does, with `environment` in place of the caller's.
  func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> AnnounceRequest {
    try Announce.parse(arguments).request(environment: environment)
  }

  @Test func defaultsMatchTheDocumentation() throws {
    let command = try parse(["Saved"])
    let announcement = command.defaults
    #expect(announcement.retryTimeout == .seconds(3))
    #expect(announcement.priority == .text)
    #expect(announcement.delay == .zero)
    #expect(announcement.voice == VoiceOptions())
    #expect(announcement.soundIcon == nil)
    #expect(!announcement.isSSML)
    #expect(command.connection.appName == "announce")
    #expect(command.input == .texts(["Saved"]))
    #expect(!command.readsStandardInput)
  }

  @Test(arguments: [[], ["-"]])
  func noTextOrADashReadsStandardInput(arguments: [String]) throws {
    #expect(try parse(arguments).readsStandardInput)
  }

  @Test(arguments: [["-", "-"], ["Saved", "-"], ["-", "Saved"]])
  func aDashAmongOtherTextsIsAUsageError(arguments: [String]) {
    #expect(throws: (any Error).self) { try parse(arguments) }
  }

  @Test func aUsageErrorIsOneLineNamingTheHelp() {
    let message =
      "Error: --rate must be a whole number from -100 to 100, not 500.\nUsage: announce [<options>] [<texts> ...]\n  See 'announce --help' for more information."
    #expect(
      OneLineErrors.sentence(message, commandName: "announce")
        == "announce: --rate must be a whole number from -100 to 100, not 500 (see announce --help).")
  }

  @Test func theValidValuesAreAListInWordsNotDashes() {
    let message = """
      Error: The value 'robot' is invalid for '--voice-type <type>'. Please provide one of the following:
        - male1
        - male2
        - child_female
      Usage: announce [<options>] [<texts> ...]
        See 'announce --help' for more information.
      """
    #expect(
      OneLineErrors.sentence(message, commandName: "announce")
        == "announce: The value 'robot' is invalid for '--voice-type <type>'. Please provide one of the following: male1, male2 or child_female (see announce --help)."
    )
  }

  /// Under the tests' C locale every known sentence of swift-argument-parser comes back as
  /// it was: the pieces taken out of it are put back where they were.
  @Test(arguments: [
    "Unknown option '--colr'", "Unknown option '--colr'. Did you mean '--color'?",
    "Missing value for '--rate <rate>'", "Unexpected argument 'extra'", "Missing expected argument '<pid>'",
    "The value 'it's' is invalid for '--timeout <seconds>': it is not a duration, such as 3, 90s or 1m",
    "The value 'loud' is invalid for '--priority <priority>'. Please provide one of 'important', 'message' or 'text'.",
    "The value 'x' is invalid for '--mode <mode>'. Please provide one of 'a' or 'b'.",
    "The value 'robot' is invalid for '--voice-type <type>'. Please provide one of the following:",
    "The value '' is invalid for '<pid>'", "Something swift-argument-parser says one day",
  ])
  func theParsersOwnSentencesAreKeptWholeInEnglish(line: String) {
    #expect(ParserWording.translated(line) == line)
  }

  /// "one of 'a' and 'b'", as swift-argument-parser lists two values, is "one of 'a' or
  /// 'b'", as for more: one of them is wanted, not both.
  @Test func twoValidValuesAreOneOrTheOther() {
    #expect(
      ParserWording.translated(
        "The value 'x' is invalid for '--mode <mode>'. Please provide one of 'a' and 'b'.")
        == "The value 'x' is invalid for '--mode <mode>'. Please provide one of 'a' or 'b'.")
  }

  @Test func everyOptionIsParsed() throws {
    let command = try parse([
      "-t", "2.5", "--delay", "1", "-P", "message", "-I", "prompt", "-x",
      "-r", "-50", "-p", "10", "-R", "20", "-i", "-30", "-l", "de", "-y", "Anna",
      "--voice-type", "child_female", "-o", "espeak-ng", "-m", "all", "-s",
      "--address", "unix_socket:\(testRoot)/tmp/s.sock", "-N", "builder", "--json", "-v",
      "<speak>Hi</speak>",
    ])
    let announcement = command.defaults
    #expect(announcement.retryTimeout == .milliseconds(2500))
    #expect(announcement.delay == .seconds(1))
    #expect(announcement.priority == .message)
    #expect(announcement.soundIcon == "prompt")
    #expect(announcement.isSSML)
    #expect(
      announcement.voice
        == VoiceOptions(
          rate: -50, pitch: 10, pitchRange: 20, volume: -30, language: "de", voiceName: "Anna",
          voiceType: .childFemale, outputModule: "espeak-ng", punctuation: .all, spell: true))
    #expect(command.connection.address == "unix_socket:\(testRoot)/tmp/s.sock")
    #expect(command.connection.appName == "builder")
    #expect(command.outcomes.json && command.outcomes.verbose)
    #expect(command.texts == ["<speak>Hi</speak>"])
  }

  @Test func longFormsAndDiscoveryFlagsAreParsed() throws {
    let command = try parse([
      "--timeout", "0", "--priority", "notification", "--rate", "100", "--pitch", "-100",
      "--pitch-range", "0", "--volume", "100", "--language", "en", "--voice", "Alex",
      "--output-module", "espeak-ng", "--punctuation", "none", "--spell", "--sound-icon", "message",
      "--ssml", "--app-name", "x", "--input", "json", "--quiet", "--list-modules", "--list-voices",
    ])
    #expect(command.defaults.retryTimeout == .zero)
    #expect(command.defaults.priority == .notification)
    #expect(command.outcomes.quiet && command.work == .list(modules: true, voices: true))
    #expect(command.input == .standardInput(.json))
  }

  @Test(arguments: [
    (["--timeout", "soon", "x"], ["--timeout"]),
    (["--timeout", "-1", "x"], ["--timeout", "from 0 to 86400"]),
    (["--timeout", "inf", "x"], ["--timeout"]),
    (["--delay", "-2", "x"], ["--delay", "from 0 to 86400"]),
    (["--priority", "loud", "x"], ["priority", "important", "message", "text", "notification", "progress"]),
    (["--rate", "101", "x"], ["--rate", "-100 to 100"]),
    (["--pitch", "-101", "x"], ["--pitch", "-100 to 100"]),
    (["--pitch-range", "500", "x"], ["--pitch-range", "-100 to 100"]),
    (["--volume", "loud", "x"], ["--volume"]),
    (["--voice-type", "robot", "x"], ["voice-type", "male1", "child_female"]),
    (["--punctuation", "lots", "x"], ["punctuation", "none", "some", "most", "all"]),
    (["--input", "xml"], ["input", "lines", "json"]),
    (["--input", "json", "Saved"], ["--input json"]),
    (["--address", "tcp:x", "x"], ["--address", "unix_socket:PATH"]),
    (["--verbose", "--quiet", "x"], ["--verbose", "--quiet"]),
    (["--app-name", "two words", "x"], ["--app-name"]),
    (["--language", "en us", "x"], ["--language"]),
    (["--sound-icon", "", "x"], ["--sound-icon"]),
    (["--frobnicate", "x"], ["--frobnicate"]),
  ])
  func invalidValuesAreUsageErrorsThatNameTheOptionAndTheValidValues(
    arguments: [String], mentions: [String]
  ) {
    do {
      _ = try parse(arguments)
      Issue.record("\(arguments) was accepted")
    } catch {
      #expect(Announce.exitCode(for: error).rawValue == 64)
      let message = Announce.message(for: error)
      for word in mentions {
        #expect(message.contains(word), "\"\(message)\" does not mention \(word)")
      }
    }
  }

  @Test func defaultsComeFromTheGivenEnvironmentNotTheCallers() throws {
    let fromVariables = try parse(
      ["Saved"], environment: ["ANNOUNCE_TIMEOUT": "7", "ANNOUNCE_PRIORITY": "message"])
    #expect(fromVariables.defaults.retryTimeout == .seconds(7))
    #expect(fromVariables.defaults.priority == .message)
    #expect(try parse(["Saved"]).defaults.retryTimeout == Announcement.defaultRetryTimeout)
    #expect(throws: (any Error).self) { try parse(["Saved"], environment: ["ANNOUNCE_RATE": "fast"]) }
  }

  @Test func theVersionIsPrinted() {
    #expect(Announce.configuration.version.isEmpty == false)
  }
}

/// Names of priorities, voice types and punctuation levels are taken in any case, on the
/// command line, in the environment and in JSON input alike.
@Suite struct ChoiceCaseTests {
  @Test func aChoiceOnTheCommandLineIsTakenInAnyCase() throws {
    let command = try Announce.parse([
      "--priority", "IMPORTANT", "--voice-type", "Child_Female", "-m", "ALL", "x",
    ]).request(environment: [:])
    let announcement = command.defaults
    #expect(announcement.priority == .important)
    #expect(announcement.voice.voiceType == .childFemale)
    #expect(announcement.voice.punctuation == .all)
  }

  @Test func aPriorityInTheEnvironmentIsTakenInAnyCase() throws {
    let command = try Announce.parse(["x"]).request(environment: ["ANNOUNCE_PRIORITY": "Message"])
    #expect(command.defaults.priority == .message)
  }
}

/// A user's value is quoted whole in a usage error, whatever it holds (issue #46).
@Suite struct UsageErrorValueTests {
  static let usage =
    "\nUsage: announce [<options>] [<texts> ...]\n  See 'announce --help' for more information."
  static let choices = "'. Please provide one of 'important', 'message' or 'text'."

  @Test func aValueHoldingTheSentencesOwnWordsIsTakenWhole() {
    #expect(CatalogTests.compiled)
    let value = "a' is invalid for 'b"
    let message =
      "Error: The value '\(value)' is invalid for '--priority <priority>\(Self.choices)" + Self.usage
    let german = OneLineErrors.sentence(
      message, commandName: "announce", arguments: ["--priority", value], in: .language("de"))
    #expect(german.contains("'\(value)'"), "\(german)")
    #expect(german.contains("--priority <priority>"), "\(german)")
    #expect(!german.contains("Please provide"), "\(german)")
    let english = OneLineErrors.sentence(message, commandName: "announce", arguments: ["--priority", value])
    #expect(
      english
        == "announce: The value '\(value)' is invalid for '--priority <priority>\(Self.choices.dropLast()) (see announce --help)."
    )
  }

  @Test func aValueWithALineBreakKeepsTheOptionAndTheValidValues() {
    #expect(CatalogTests.compiled)
    let value = "loud\nand clear"
    let message =
      "Error: The value '\(value)' is invalid for '--priority <priority>\(Self.choices)" + Self.usage
    for wording in [Wording.english, .language("de")] {
      let line = OneLineErrors.sentence(
        message, commandName: "announce", arguments: ["--priority=\(value)"], in: wording)
      #expect(!line.contains("\n"))
      #expect(line.contains("'loud and clear'"), "\(line)")
      #expect(line.contains("--priority <priority>"), "\(line)")
      #expect(line.contains("'important', 'message'"), "\(line)")
    }
    let german = OneLineErrors.sentence(
      message, commandName: "announce", arguments: ["--priority", value], in: .language("de"))
    #expect(!german.contains("Please provide"), "\(german)")
  }
}
