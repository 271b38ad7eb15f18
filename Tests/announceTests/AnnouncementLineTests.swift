import AnnouncerCore
import Testing

@testable import announce

/// `--input json` lines: what is rejected, and what a good line overrides.
@Suite struct AnnouncementLineTests {
  /// The reason `line` is rejected for, or `nil` when it is accepted.
  func rejection(of line: String) -> String? {
    do {
      _ = try AnnouncementLine.decode(line)
      return nil
    } catch {
      return error.description
    }
  }

  @Test(arguments: [
    (
      "{\"text\":\"x\",\"language\":\"en\\r\\nSET all RATE 100\"}",
      "\"language\" must be a language name, such as en or pt-BR"
    ),
    ("{\"text\":\"x\",\"voice\":\"a\\r\\nQUIT\"}", "\"voice\" must be one word"),
    ("{\"text\":\"x\",\"timeout\":1e308}", "\"timeout\" must be a number of seconds from 0 to 86400"),
    ("{\"text\":\"x\",\"delay\":1e20}", "\"delay\" must be a number of seconds from 0 to 86400"),
    (
      "{\"text\":\"x\",\"delay\":\"soon\"}",
      "\"delay\" must be a number of seconds from 0 to 86400, not \"soon\""
    ),
    ("{\"text\":\"x\",\"rate\":1.5}", "\"rate\" must be a whole number from -100 to 100, not 1.5"),
    ("{\"text\":\"x\",\"rate\":100.5}", "\"rate\" must be a whole number from -100 to 100, not 100.5"),
    ("{\"text\":\"x\",\"pitch\":500}", "\"pitch\" must be a whole number from -100 to 100, not 500"),
    (
      "{\"text\":\"x\",\"volume\":[1]}",
      "\"volume\" must be a whole number from -100 to 100, not a list or an object"
    ),
    (
      "{\"text\":\"x\",\"priority\":\"loud\"}",
      "\"priority\" must be one of important, message, text, notification or progress, not \"loud\""
    ),
    ("{\"text\":\"x\",\"ssml\":\"yes\"}", "\"ssml\" must be true or false, not \"yes\""),
    ("{\"text\":\"x\",\"resume\":0}", "\"resume\" must be true or false, not 0"),
    ("{\"text\":5}", "\"text\" must be a string, not 5"),
    ("[1,2]", "it is not a JSON object"),
    ("{\"text\":\"  \"}", "the \"text\" field is empty"),
    ("{\"rate\":1}", "the object has no \"text\" field"),
    ("{\"text\":null}", "the object has no \"text\" field"),
  ])
  func badLinesAreRejectedWithTheirCause(line: String, cause: String) throws {
    let reason = try #require(rejection(of: line), "\(line) was accepted")
    #expect(reason.contains(cause), "\(reason)")
    #expect(!reason.contains("\n"))
  }

  @Test(arguments: [
    "{\"text\":\"a\",\"text\":\"b\"}",
    "{\"text\":\"a\",\"te\\u0078t\":\"b\"}",
    "{\"rate\":1,\"text\":\"a\",\"rate\":2}",
  ])
  func aKeyGivenTwiceIsRefusedAsAmbiguousAndNamed(line: String) throws {
    let reason = try #require(rejection(of: line), "\(line) was accepted")
    #expect(reason.contains("twice") && reason.contains("ambiguous"), "\(reason)")
    #expect(reason.contains("\"text\"") || reason.contains("\"rate\""), "\(reason)")
    #expect(reason.hasSuffix("give each key once"))
  }

  @Test(arguments: [
    ("{\"text\":\"\\ud800\"}", "the \"text\" field has \\ud800"),
    ("{\"text\":\"a\\udc00b\"}", "the \"text\" field has \\udc00"),
    ("{\"text\":\"\\ud800\\u0041\"}", "the \"text\" field has \\ud800"),
    ("{\"text\":\"\\uD800\\n\"}", "the \"text\" field has \\uD800"),
    ("{\"text\":\"x\",\"voice\":\"\\ud83d\"}", "the \"voice\" field has \\ud83d"),
    ("{\"te\\ud800xt\":\"x\"}", "a key has \\ud800"),
  ])
  func halfASurrogatePairIsNamedAsSuch(line: String, cause: String) throws {
    let reason = try #require(rejection(of: line), "\(line) was accepted")
    #expect(reason.contains(cause), "\(reason)")
    #expect(reason.contains("half of a UTF-16 surrogate pair"), "\(reason)")
  }

  @Test func aWholeSurrogatePairIsItsCharacter() throws {
    let line = try AnnouncementLine.decode("{\"text\":\"Done \\ud83d\\ude00\"}")
    #expect(line.text == "Done 😀")
  }

  @Test func nestingDeeperThanTheDecoderTakesIsSaidToBeTooDeep() throws {
    func line(depth: Int) -> String {
      "{\"text\":\"x\",\"extra\":" + String(repeating: "[", count: depth - 1)
        + String(repeating: "]", count: depth - 1) + "}"
    }
    #expect(rejection(of: line(depth: JSONLineCheck.maxDepth)) == nil)
    let reason = try #require(rejection(of: line(depth: JSONLineCheck.maxDepth + 1)))
    #expect(reason.contains("nested too deeply"), "\(reason)")
    let outer = try #require(rejection(of: String(repeating: "[", count: 100_000)))
    #expect(outer.contains("nested too deeply"), "\(outer)")
  }

  @Test(arguments: ["IMPORTANT", "Message", "text"])
  func aPriorityIsAcceptedInAnyCase(name: String) throws {
    let line = try AnnouncementLine.decode("{\"text\":\"x\",\"priority\":\"\(name)\"}")
    #expect(line.announcement(defaults: Announcement("")).priority.rawValue == name.lowercased())
  }

  @Test func aWholeNumberMayBeWrittenWithAFractionOfZeroOrAnExponent() throws {
    let defaults = Announcement("")
    #expect(
      try AnnouncementLine.decode("{\"text\":\"x\",\"rate\":100.0}").announcement(defaults: defaults).voice
        .rate == 100)
    #expect(
      try AnnouncementLine.decode("{\"text\":\"x\",\"rate\":-1e2}").announcement(defaults: defaults).voice
        .rate == -100)
  }

  @Test func aGoodLineOverridesOnlyWhatItNames() throws {
    let defaults = Announcement("", priority: .text, retryTimeout: .seconds(3), voice: VoiceOptions(rate: 10))
    let line = try AnnouncementLine.decode(
      "{\"text\":\"Saved\",\"timeout\":0,\"priority\":\"message\",\"delay\":1,\"volume\":null,\"unknown\":{\"a\":1}}"
    )
    let announcement = line.announcement(defaults: defaults)
    #expect(announcement.text == "Saved")
    #expect(announcement.retryTimeout == .zero)
    #expect(announcement.priority == .message)
    #expect(announcement.delay == .seconds(1))
    #expect(announcement.voice.rate == 10)
    #expect(announcement.voice.volume == nil)
  }

  @Test func everyFieldReachesTheAnnouncement() throws {
    let line = try AnnouncementLine.decode(
      """
      {"text":"<speak>Hi</speak>","timeout":1.5,"priority":"important","delay":2,"rate":-10,\
      "pitch":20,"volume":-30,"language":"de","voice":"Anna","ssml":true,"resume":false}
      """)
    let announcement = line.announcement(defaults: Announcement(""))
    #expect(announcement.retryTimeout == .milliseconds(1500))
    #expect(announcement.priority == .important)
    #expect(announcement.delay == .seconds(2))
    #expect(
      announcement.voice == VoiceOptions(rate: -10, pitch: 20, volume: -30, language: "de", voiceName: "Anna")
    )
    #expect(announcement.isSSML)
    #expect(!announcement.resume)
  }
}
