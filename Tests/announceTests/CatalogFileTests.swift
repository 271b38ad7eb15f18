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

  /// gettext evaluates a plural expression in `unsigned long`, where no division
  /// overflows; Swift's `Int` traps on `Int.min / -1` and `Int.min % -1`, which a crafted
  /// catalog reaches with `0 - 9223372036854775807 - 1`.
  @Test func aPluralRuleThatOverflowsDividesAsGettextDoes() throws {
    let smallest = "(0 - 9223372036854775807 - 1)"
    let quotient = try #require(PluralRule(header: "plural=\(smallest) / (0 - 1);"))
    #expect(quotient.index(for: 1) == 0)
    let remainder = try #require(PluralRule(header: "plural=\(smallest) % (0 - 1) != 0;"))
    #expect(remainder.index(for: 1) == 1)
    let byZero = try #require(PluralRule(header: "plural=n / (n - n) + n % 0;"))
    #expect(byZero.index(for: 3) == 0)
  }

  /// A crafted catalog's rule nested a hundred thousand deep overflowed the parser's
  /// stack; one this deep or long is refused, and a real language's rule is far from it.
  @Test func aPluralRuleNestedTooDeeplyOrTooLongIsRefused() throws {
    let depth = 100_000
    let parentheses = String(repeating: "(", count: depth) + "n" + String(repeating: ")", count: depth)
    #expect(PluralRule(header: "plural=\(parentheses);") == nil)
    #expect(PluralRule(header: "plural=" + String(repeating: "!", count: depth) + "n;") == nil)
    let choices = String(repeating: "n ? 1 : ", count: depth) + "0"
    #expect(PluralRule(header: "plural=\(choices);") == nil)
    let sum = "n" + String(repeating: " + n", count: depth)
    #expect(PluralRule(header: "plural=\(sum);") == nil)
    let nested = String(repeating: "(", count: 30) + "n != 1" + String(repeating: ")", count: 30)
    #expect(try #require(PluralRule(header: "plural=\(nested);")).index(for: 2) == 1)
    #expect(try #require(PluralRule(header: Self.arabic)).index(for: 105) == 3)
  }

  static let arabic =
    "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);"

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
