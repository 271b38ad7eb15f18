import Testing

@testable import announce

/// The pass over a JSON line before the decoder: keys given twice, deep nesting, half
/// surrogate pairs; and nothing else.
@Suite struct JSONLineCheckTests {
  @Test(arguments: [
    "{\"text\":\"[[[[ {{ \\\" ]] \\\\\"}",
    "{\"text\":\"x\",\"extra\":{\"a\":1,\"a\":2}}",
    "[{\"a\":1,\"a\":2}]",
    "{\"text\":\"x\",\"extra\":[\"text\",\"text\"]}",
    "{\"text\":\"a\", \"Text\":\"b\"}",
    "{\"text\":\"\\ud83d\\ude00 \\u00e9\\n\\/\"}",
  ])
  func wellFormedLinesWithoutTheseProblemsPass(line: String) {
    #expect(JSONLineCheck.problem(in: line) == nil)
  }

  @Test(arguments: [
    "{\"text\":\"abc", "{\"text\":\"\\q\"}", "{\"text\":\"\\u12\"}", "not json", "",
    "{\"text\":\"a\"}{\"text\":\"b\"}",
  ])
  func malformedLinesAreLeftToTheDecoder(line: String) {
    #expect(JSONLineCheck.problem(in: line) == nil)
  }

  @Test(arguments: [
    ("{\"a\\/b\":1,\"a/b\":2}", "a/b"),
    ("{\"\\u00e9\":1,\"é\":2}", "é"),
    ("{\"é\":1,\"e\\u0301\":2}", "é"),
    ("{ \"text\" : \"a\" , \"text\" : \"b\" }", "text"),
    ("{\"text\":\"a\",\"extra\":{\"text\":1},\"text\":\"b\"}", "text"),
  ])
  func aKeyOfTheOuterObjectGivenTwiceIsFoundHoweverItIsWritten(line: String, key: String) throws {
    let problem = try #require(JSONLineCheck.problem(in: line))
    #expect(
      problem.description == "it has the key \"\(key)\" twice, so its value is ambiguous; give each key once")
  }

  @Test func aHugeTextIsCheckedInOnePass() {
    let text = String(repeating: "Word \\\"quoted\\\" {x} ", count: 200_000)
    let clock = ContinuousClock()
    let started = clock.now
    #expect(JSONLineCheck.problem(in: "{\"text\":\"\(text)\",\"text\":\"b\"}") != nil)
    // About 4 MiB; a pass that went back over the text for each quote would take minutes.
    #expect(clock.now - started < .seconds(10))
  }

  /// A reason quotes at most 40 characters of a key: a megabyte-long key was quoted
  /// whole, into the line printed and into the outcome log's record (issue #46).
  @Test func aReasonQuotesAHugeKeyShortened() throws {
    let key = String(repeating: "k", count: 1_000_000)
    let twice = try #require(JSONLineCheck.problem(in: "{\"\(key)\":1,\"\(key)\":2}"))
    let lone = try #require(JSONLineCheck.problem(in: "{\"\(key)\":\"\\ud800\"}"))
    for problem in [twice, lone] {
      #expect(problem.description.utf8.count < 300, "\(problem.description.prefix(120))")
      #expect(problem.english.utf8.count < 300)
      #expect(problem.description.contains(String(repeating: "k", count: 39) + "…"))
    }
  }
}
