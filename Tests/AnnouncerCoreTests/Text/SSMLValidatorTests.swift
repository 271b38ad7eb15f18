import Testing

@testable import AnnouncerCore

/// What the SSML check accepts and the one sentence it gives for what it refuses.
@Suite struct SSMLValidatorTests {
  @Test(arguments: [
    "<speak>Saved.</speak>", "<speak/>", "<speak>a</speak >  \n",
    "<?xml version=\"1.0\"?><speak>é 日本 🎉</speak>",
    "<speak xmlns=\"http://www.w3.org/2001/10/synthesis\"><break time=\"1s\"/>x</speak>",
    "<!-- c --><speak><![CDATA[a < b]]> &amp; &#x41;</speak>",
  ])
  func wellFormedDocumentsWithASpeakRootAreAccepted(document: String) {
    #expect(SSMLValidator.problem(in: document) == nil)
  }

  @Test(arguments: [
    ("", "line 1, column 1: it does not start with an element"),
    ("plain text", "it does not start with an element"),
    ("<speak>Hi <b>", "it ends before every element is closed"),
    ("<speak>a</speak>x", "there is text after the root element"),
    ("<speak>&foo;</speak>", "undefined entity"),
    ("<speak>a & b</speak>", "bare ampersand"),
    ("<speak a=1/>", "an attribute is malformed"),
    ("<speak></voice>", "a closing tag does not match its opening tag"),
    ("<speak>\u{1}</speak>", "a character XML does not allow"),
  ])
  func malformedDocumentsAreNamedAsSuch(document: String, reason: String) throws {
    let problem = try #require(SSMLValidator.problem(in: document))
    #expect(problem.hasPrefix("the SSML is not well-formed XML at line 1, column "), "\(problem)")
    #expect(problem.contains(reason), "\(problem)")
  }

  @Test func theRootMustBeSpeak() {
    #expect(
      SSMLValidator.problem(in: "<voice>x</voice>")
        == "the SSML must have <speak> as its root element, not <voice>")
    #expect(
      SSMLValidator.problem(in: "<s:speak xmlns:s=\"x\"/>")
        == "the SSML must have <speak> as its root element, not <s:speak>")
  }

  /// A valid 10 MB document was called "not well-formed": the parser's limit on one text
  /// (10,000,000 bytes) was reported as a syntax error. It is refused for its size, and says so.
  @Test func aDocumentOverTheSizeLimitIsRefusedForItsSizeNotItsSyntax() throws {
    let document = "<speak>" + String(repeating: "a", count: 10 << 20) + "</speak>"
    let problem = try #require(SSMLValidator.problem(in: document))
    #expect(
      problem
        == "the SSML is \(document.utf8.count) bytes, more than the 1048576 bytes (1 MiB) one document may have"
    )
  }

  @Test func aDocumentJustUnderTheSizeLimitIsAccepted() {
    let text = String(repeating: "word ", count: (SSMLValidator.maximumBytes - 15) / 5)
    let document = "<speak>" + text + "</speak>"
    #expect(document.utf8.count <= SSMLValidator.maximumBytes)
    #expect(SSMLValidator.problem(in: document) == nil)
  }

  @Test func theParsersOwnLimitsAreNamedAsLimits() throws {
    let deep =
      "<speak>" + String(repeating: "<p>", count: 300) + String(repeating: "</p>", count: 300) + "</speak>"
    #expect(
      SSMLValidator.problem(in: deep)
        == "the SSML nests elements more than 256 deep, the most the XML parser (libxml2) accepts")
    let longName = "<speak><" + String(repeating: "a", count: 60_000) + "/></speak>"
    #expect(
      SSMLValidator.problem(in: longName)
        == "the SSML has a name longer than 50000 bytes, the most the XML parser (libxml2) accepts")
    let bomb =
      "<!DOCTYPE speak [<!ENTITY a \"aaaaaaaaaa\">"
      + (1...8).map { level -> String in
        let previous = level == 1 ? "a" : "e\(level - 1)"
        return "<!ENTITY e\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
      }.joined() + "]><speak>&e8;</speak>"
    let problem = try #require(SSMLValidator.problem(in: bomb))
    #expect(problem.contains("expand too far"), "\(problem)")
  }

  @Test func ourMarkIsFoundBeforeAClosingTagThatFollowsAPrependCharacter() {
    // U+0600 joins the `<` after it into one Character.
    #expect(
      SSMLDocument.speaking(ssml: "<speak>\u{600}</speak>", finalMark: "m")
        == "<speak>\u{600}<mark name=\"m\"/></speak>")
  }

  @Test func whiteSpaceIsTrimmedAtBothEndsOnly() {
    #expect(" \t\r\n a b \u{85}\u{A0}\r\n".trimmingWhiteSpace == "a b")
    #expect(" \n ".trimmingWhiteSpace == "")
  }

  @Test func replacementMatchesBytesNotCharacters() {
    // A quote followed by a combining acute accent is one Character.
    #expect("a'\u{301}b".replacingBytes(of: "'", with: "'\\''") == "a'\\''\u{301}b")
    #expect("aaa".replacingBytes(of: "aa", with: "b") == "ba")
  }
}
