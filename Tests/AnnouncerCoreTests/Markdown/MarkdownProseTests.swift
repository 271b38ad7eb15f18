@testable import AnnouncerCore
import Testing

/// The rules of Markdown read aloud, on walks written by hand.
@Suite struct MarkdownProseTests {
  private let prose = MarkdownProse()

  @Test func emphasisAndCodeSpansLoseTheirMarks() {
    let said = prose.prose(of: [
      .enter(.paragraph), .text("Run "), .code("make test"), .text(" "), .enter(.emphasis), .text("now"),
      .exit(.emphasis), .text("!"), .exit(.paragraph),
    ])
    #expect(said == "Run make test now!")
  }

  @Test func aLinkIsSaidByItsTextAndABareOneByItsHost() {
    let said = prose.prose(of: [
      .enter(.paragraph), .text("See "), .enter(.link(url: "https://example.com/docs")), .text("the docs"),
      .exit(.link(url: "https://example.com/docs")), .text(" or "),
      .enter(.link(url: "https://github.com/a/b/pull/12")), .text("https://github.com/a/b/pull/12"),
      .exit(.link(url: "https://github.com/a/b/pull/12")), .exit(.paragraph),
    ])
    #expect(said == "See the docs or link to github.com.")
  }

  @Test(arguments: [
    ("https://user@example.com:8080/a?b#c", "example.com"), ("mailto:me@example.org", "me@example.org"),
    ("www.example.net", "www.example.net"), ("http://[::1]:80/", "[::1]"),
  ])
  func theHostOfAURL(url: String, host: String) {
    #expect(MarkdownProse.host(of: url) == host)
  }

  @Test func codeBlocksAndTablesAreSaidByTheirSize() {
    let said = prose.prose(of: [
      .enter(.paragraph), .text("Here is the fix"), .exit(.paragraph), .codeBlock(lines: 3),
      .table(rows: 1), .codeBlock(lines: 1), .table(rows: 12),
    ])
    #expect(said == "Here is the fix. code block, 3 lines. table, 1 row. code block, 1 line. table, 12 rows.")
  }

  @Test func headingsAndListItemsBecomeSentences() {
    let said = prose.prose(of: [
      .enter(.heading), .text("Summary"), .exit(.heading), .enter(.other), .enter(.listItem),
      .enter(.paragraph), .text("Fixed the build"), .exit(.paragraph), .exit(.listItem), .enter(.listItem),
      .enter(.paragraph), .text("Tests pass?"), .exit(.paragraph), .exit(.listItem), .exit(.other),
    ])
    #expect(said == "Summary. Fixed the build. Tests pass?")
  }

  @Test func htmlIsLeftOutAndBreaksAreSpaces() {
    let said = prose.prose(of: [
      .enter(.paragraph), .text("one"), .html, .lineBreak, .text("two  "), .lineBreak, .exit(.paragraph),
    ])
    #expect(said == "one two.")
  }

  @Test func aLinkLeftOpenIsStillSaid() {
    #expect(prose.prose(of: [.enter(.link(url: "x")), .text("half")]) == "half.")
  }

  @Test func theWordsCanBeAnotherLanguages() {
    let german = MarkdownProse(
      wording: .init(
        codeBlock: { "Codeblock, \($0) Zeilen" }, table: { "Tabelle, \($0) Zeilen" },
        link: { "Link zu \($0)" }))
    #expect(german.prose(of: [.codeBlock(lines: 2)]) == "Codeblock, 2 Zeilen.")
  }

  @Test func aDeepWalkCostsNoStack() {
    let depth = 100_000
    let events =
      Array(repeating: MarkdownEvent.enter(.blockQuote), count: depth) + [.enter(.paragraph), .text("deep")]
      + [.exit(.paragraph)] + Array(repeating: MarkdownEvent.exit(.blockQuote), count: depth)
    #expect(prose.prose(of: events) == "deep.")
  }
}
