import Foundation
import Testing

@testable import announce
import AnnouncerTesting

/// announce's own reader of compiled catalogs, which serves a language glibc's gettext
/// will not answer in (glibc 2.39 and later under C.UTF-8), and its plural rules.
@Suite struct CatalogFileTests {
  static let polish = "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"

  @Test func pluralRulesGiveTheFormsOfTheirLanguages() throws {
    let germanic = try #require(PluralRule(header: "nplurals=2; plural=(n != 1);"))
    #expect([0, 1, 2, 5].map(germanic.index(for:)) == [1, 0, 1, 1])
    let french = try #require(PluralRule(header: "nplurals=2; plural=(n > 1);"))
    #expect([0, 1, 2, 5].map(french.index(for:)) == [0, 0, 1, 1])
    let polish = try #require(PluralRule(header: Self.polish))
    #expect([1, 2, 4, 5, 12, 22, 25, 112].map(polish.index(for:)) == [0, 1, 1, 2, 2, 1, 2, 2])
    let japanese = try #require(PluralRule(header: "nplurals=1; plural=0;"))
    #expect(japanese.index(for: 7) == 0)
    let negated = try #require(PluralRule(header: "plural=!(n == 1);"))
    #expect(negated.index(for: 1) == 0 && negated.index(for: 3) == 1)
    #expect(PluralRule(header: "nplurals=2; plural=(n != ;") == nil)
    #expect(PluralRule(header: "nplurals=2;") == nil)
  }

  /// Every message of every catalog, compiled by msgfmt, reads back as its `.po` says.
  @Test(arguments: CatalogTests.languages)
  func aCompiledCatalogReadsBackAsItsPOFileSays(language: String) throws {
    #expect(CatalogTests.compiled)
    let directory = try #require(MessageCatalogs.directory)
    let file = try #require(CatalogFile(path: "\(directory)/\(language)/LC_MESSAGES/announce.mo"))
    let catalog = try POFile(path: "\(CatalogTests.root)/po/\(language).po")
    for message in catalog.messages {
      if message.plural == nil {
        #expect(file.translation(of: message.id) == message.strings.first, "\(language): \(message.id)")
      } else {
        #expect(
          file.translation(of: message.id, count: 1) == message.strings.first, "\(language): \(message.id)")
        #expect(
          file.translation(of: message.id, count: 5) == message.strings.last, "\(language): \(message.id)")
      }
    }
    #expect(file.translation(of: "No catalog has this message.") == nil)
  }

  @Test func whatIsNotACatalogIsRefused() {
    #expect(CatalogFile(bytes: Array("not a catalog at all".utf8)) == nil)
    #expect(CatalogFile(bytes: [0xde, 0x12, 0x04, 0x95, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 28]) == nil)
    #expect(CatalogFile(path: UnusedPath.file("announce.mo")) == nil)
  }
}

/// The placeholders of a printed line are filled in one pass.
@Suite struct PrintedPlaceholderTests {
  @Test func aValueWithBracesIsNotFilledInAgain() {
    #expect(
      localized(
        "{command}: {problem} (see {usage} --help).",
        ["command": "announce", "problem": "{usage} {", "usage": "x"])
        == "announce: {usage} { (see x --help).")
    #expect(localized("No {such} placeholder {", ["other": "y"]) == "No {such} placeholder {")
  }
}
