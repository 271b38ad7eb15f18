import AnnouncerCore
import AnnouncerTesting
import ArgumentParser
import Testing

@testable import announce

/// The folder every path in these tests starts from: nothing makes it, and the tests only
/// read its name.
private let projects = UnusedPath.folder()

/// How a text is read for issue #49: a JSON document's text field, its source, Markdown
/// as prose and a long reply shortened, and the rejections of what cannot be read.
@Suite struct TextReadingTests {
  /// Reads `input` as line 1, as the run does, with `reading`.
  func read(_ input: String, _ reading: TextReading) -> Result<Announcement, LineError> {
    AnnouncementLineReader.announcement(
      for: InputLines.Line(number: 1, text: input), reading: reading, defaults: Announcement(""))
  }

  func spoken(_ input: String, _ reading: TextReading) throws -> String {
    try read(input, reading).get().text
  }

  static let claudeNotification = """
    {"session_id": "abc123", "transcript_path": "\(projects)/.claude/abc123.jsonl",
     "cwd": "\(projects)/shop", "hook_event_name": "Notification",
     "message": "Claude needs your permission to use Bash"}
    """

  @Test func aDocumentsTextComesFromTheNamedFieldAndItsSourceFromTheFolderOfCwd() throws {
    let reading = TextReading(format: .jsonDocument, textField: "message", sourceField: "cwd")
    #expect(try spoken(Self.claudeNotification, reading) == "shop: Claude needs your permission to use Bash")
  }

  /// The words the Markdown rules add are announce's own, so they are said in the run's
  /// spoken language, with its plural forms; the reply's own words stay as written.
  @Test func theMarkdownRulesWordsAreSaidInTheSpokenLanguage() throws {
    #expect(CatalogTests.compiled)
    let markdown = "See <https://example.com/a>.\n\n```\nmake\nmake test\n```\n\n| a |\n|---|\n| 1 |\n"
    var reading = TextReading(markdown: true, fullText: true)
    #expect(
      try spoken(markdown, reading) == "See link to example.com. code block, 2 lines. table, 1 row.")
    reading.wordsLanguage = "de"
    #expect(
      try spoken(markdown, reading) == "See Link zu example.com. Codeblock, 2 Zeilen. Tabelle, 1 Zeile.")
    reading.wordsLanguage = "fr"
    #expect(
      try spoken(markdown, reading) == "See lien vers example.com. bloc de code, 2 lignes. tableau, 1 ligne.")
  }

  @Test func aSourceGivenByNameIsSaidBeforeAPlainLine() throws {
    #expect(try spoken("tests passed", TextReading(source: "shop")) == "shop: tests passed")
  }

  @Test func aSourceFieldThatIsMissingOrNoStringLeavesTheSourceOut() throws {
    let reading = TextReading(format: .jsonDocument, textField: "message", sourceField: "cwd")
    #expect(try spoken(#"{"message": "Done"}"#, reading) == "Done")
    #expect(try spoken(#"{"message": "Done", "cwd": 7}"#, reading) == "Done")
  }

  static let sourceNames: [(String?, String?)] = [
    (projects + "/shop", "shop"), (projects + "/shop/", "shop"), ("shop", "shop"), ("/", nil),
    ("  ", nil), ("my\nproject", "my project"), (nil, nil),
  ]

  @Test(arguments: sourceNames)
  func aSourceIsNamedByItsLastFolderOnOneLine(source: String?, named: String?) {
    #expect(TextReading.named(source) == named)
  }

  @Test func aHostileSourceIsCutShort() throws {
    let named = try #require(TextReading.named(String(repeating: "a", count: 1_000_000)))
    #expect(named.count == TextReading.longestSource)
    #expect(named.hasSuffix("…"))
  }

  @Test func aDocumentsOtherFieldsAreNotSettings() throws {
    // Codex CLI's payload has a "type", which a JSON line would read as a voice type.
    let payload = #"{"type": "agent-turn-complete", "last-assistant-message": "Done", "rate": "fast"}"#
    let reading = TextReading(format: .jsonDocument, textField: "last-assistant-message")
    #expect(try spoken(payload, reading) == "Done")
  }

  @Test func aMissingTextFieldIsRejectedNamingTheField() {
    let reading = TextReading(format: .jsonDocument, textField: "message")
    #expect(
      read(#"{"cwd": "shop"}"#, reading) == .failure(LineError("the object has no \"message\" field")))
  }

  @Test func aTextFieldThatIsNoStringIsRejectedNamingItsValue() {
    let reading = TextReading(format: .jsonDocument, textField: "message")
    #expect(
      read(#"{"message": {"text": "hi"}}"#, reading)
        == .failure(LineError("\"message\" must be a string, not a list or an object")))
    #expect(read(#"{"message": 42}"#, reading) == .failure(LineError("\"message\" must be a string, not 42")))
  }

  @Test func aPayloadThatIsNotJSONIsRejected() {
    let reading = TextReading(format: .jsonDocument, textField: "message")
    #expect(
      read("Claude needs you", reading)
        == .failure(LineError("it is not a JSON object such as {\"text\": \"Saved\"}")))
    #expect(read("", reading) == .failure(LineError("it is not a JSON object such as {\"text\": \"Saved\"}")))
  }

  @Test func anOverlongDocumentIsRejectedAsADocument() {
    let line = InputLines.Line(number: 1, text: "{\"message\": \"aaa…", isOverlong: true)
    let result = AnnouncementLineReader.announcement(
      for: line, reading: TextReading(format: .jsonDocument), defaults: Announcement(""))
    #expect(
      result
        == .failure(
          LineError("the document is longer than the limit of 16 MiB (16777216 bytes); send a shorter one")))
  }

  @Test func anSSMLDocumentIsNeverReadAsMarkdownNorGivenASource() throws {
    let ssml = "<speak>Build <emphasis>failed</emphasis></speak>"
    let reading = TextReading(format: .json, source: "shop", markdown: true)
    let line = #"{"text": "\#(ssml)", "ssml": true}"#
    #expect(try spoken(line, reading) == ssml)
    var ssmlDefaults = Announcement("")
    ssmlDefaults.isSSML = true
    let plain = AnnouncementLineReader.announcement(
      for: InputLines.Line(number: 1, text: ssml), reading: TextReading(source: "shop", markdown: true),
      defaults: ssmlDefaults)
    #expect(try plain.get().text == ssml)
  }

  @Test func theBrailleDisplayShowsTheWordsThatAreSaid() throws {
    try #require(CmarkDocument.isAvailable)
    let announcement = try read(
      "Run `make` as **root**, see <https://example.com/a>", TextReading(markdown: true)
    )
    .get()
    let item = DeliveryItem(id: AnnouncementID(1), announcement: announcement, channels: [.speech, .braille])
    #expect(item.spoken.text == "Run make as root, see link to example.com.")
    #expect(item.shown == item.spoken.text)
  }

  @Test func aJSONLineStillTakesItsSettingsAndItsTextFromText() throws {
    let announcement = try read(#"{"text": "Saved", "rate": 50}"#, TextReading(format: .json)).get()
    #expect(announcement.text == "Saved")
    #expect(announcement.voice.rate == 50)
  }

  @Test func markdownIsSaidAsProseAndALongReplyIsShortened() throws {
    try #require(CmarkDocument.isAvailable)
    let reply = """
      I fixed the **failing** test in `Parser.swift`; see [the pull request](https://example.com/pr/1).

      ```swift
      let a = 1
      let b = 2
      ```

      The details follow, and they go on for a long time, through every file that changed and every test \
      that ran, so that a listener would not want to hear them all.
      """
    #expect(
      try spoken(reply, TextReading(source: "shop", markdown: true))
        == "shop: I fixed the failing test in Parser.swift; see the pull request. code block, 2 lines.")
    var whole = TextReading(source: "shop", markdown: true)
    whole.fullText = true
    #expect(try spoken(reply, whole).hasSuffix("so that a listener would not want to hear them all."))
  }
}

/// The rule that shortens a long text for speech.
@Suite struct LongTextTests {
  @Test func aShortTextIsSaidWhole() {
    #expect(LongText.shortened("Done. Tests pass.", limit: 20) == "Done. Tests pass.")
  }

  @Test func aLongTextIsSaidUpToItsLastSentenceWithinTheLimit() {
    #expect(LongText.shortened("Done. Tests pass. Then much more text.", limit: 20) == "Done. Tests pass.")
    #expect(LongText.shortened("Done? Yes! And then more and more.", limit: 12) == "Done? Yes!")
  }

  @Test func aSentenceEndingJustPastTheLimitIsNotKept() {
    // "Done. Tests pass." is 17 characters: with a limit of 16, only "Done." fits.
    #expect(LongText.shortened("Done. Tests pass. More.", limit: 16) == "Done.")
  }

  @Test func aFirstSentenceLongerThanTheLimitIsCutAtAWord() {
    #expect(
      LongText.shortened("The build finished without errors and more", limit: 20) == "The build finished…")
    #expect(
      LongText.shortened(String(repeating: "a", count: 50), limit: 10) == String(repeating: "a", count: 9)
        + "…")
  }

  @Test func aFullStopInsideAWordIsNoSentenceEnd() {
    #expect(
      LongText.shortened("See version 1.2.3 of the parser for details", limit: 20) == "See version 1.2.3…")
  }

  @Test func aTenMegabyteReplyIsShortenedToTheLimit() {
    let reply = "Done. " + String(repeating: "word ", count: 2_000_000)
    #expect(LongText.shortened(reply) == "Done.")
  }
}

/// The options of issue #49 as the command line gives them.
@Suite struct ReadingOptionTests {
  func parse(_ arguments: [String]) throws -> AnnounceRequest {
    try Announce.parse(arguments).request(environment: [:])
  }

  @Test func aJSONDocumentComesFromStandardInputOrFromOneText() throws {
    let fromInput = try parse([
      "--input", "json-document", "--text-field", "message", "--source-field", "cwd",
    ])
    #expect(fromInput.input == .standardInput(.jsonDocument))
    #expect(fromInput.reading.textField == "message")
    #expect(fromInput.reading.sourceField == "cwd")
    let fromArgument = try parse(["--input", "json-document", #"{"type": "agent-turn-complete"}"#])
    #expect(fromArgument.input == .texts([#"{"type": "agent-turn-complete"}"#]))
    #expect(fromArgument.reading.format == .jsonDocument)
  }

  @Test func twoDocumentsAreAUsageError() {
    #expect(throws: ValidationError.self) { try parse(["--input", "json-document", "{}", "{}"]) }
  }

  @Test func aFieldForInputThatIsNotJSONIsAUsageError() {
    #expect(throws: ValidationError.self) { try parse(["--text-field", "message", "Saved"]) }
    #expect(throws: ValidationError.self) { try parse(["--source-field", "cwd"]) }
  }

  @Test func markdownSourceAndFullTextAreRead() throws {
    let request = try parse(["--markdown", "--source", "shop", "--full-text", "Saved"])
    #expect(request.reading == TextReading(source: "shop", markdown: true, fullText: true))
  }
}
