import AnnouncerCore
import Testing

/// Markdown parsed by the real cmark-gfm and read aloud: what an agent's reply becomes.
@Suite struct CmarkDocumentTests {
  private func said(_ markdown: String) throws -> String {
    let events = try #require(CmarkDocument.events(of: markdown), "cmark-gfm is not installed")
    return MarkdownProse().prose(of: events)
  }

  @Test func aReplyWithEveryKindOfMarkIsSaidAsProse() throws {
    let reply = """
      ## Done

      I fixed **the build** in `Package.swift` and ran the *tests*; see [the PR](https://github.com/a/b/pull/7) \
      or https://ci.example.com/runs/42.

      ```swift
      let a = 1
      let b = 2
      ```

      | test | result |
      |------|--------|
      | unit | pass |
      | real | pass |

      - ~~old~~ new approach
      - <b>bold</b> claim
      """
    #expect(
      try said(reply)
        == "Done. I fixed the build in Package.swift and ran the tests; see the PR or link to ci.example.com. "
        + "code block, 2 lines. table, 2 rows. old new approach. bold claim.")
  }

  @Test func anImageIsSaidByItsDescription() throws {
    #expect(
      try said("![a graph of the build times](https://example.com/g.png)") == "a graph of the build times.")
  }

  @Test func aLinkWithNoEndIsText() throws {
    let text = try said("see [the docs](https://example.com")
    #expect(text == "see [the docs](link to example.com.")
  }

  @Test func nestingAHundredThousandDeepIsReadWithoutRecursion() throws {
    let deep = String(repeating: ">", count: 100_000) + " deep"
    #expect(try said(deep).hasSuffix("deep."))
    let brackets = String(repeating: "[", count: 100_000) + "x" + String(repeating: "](u)", count: 100_000)
    #expect(try said(brackets).contains("x"))
  }

  @Test func plainTextIsUnchangedButForItsFullStop() throws {
    #expect(try said("Build finished") == "Build finished.")
    #expect(try said("") == "")
  }
}
