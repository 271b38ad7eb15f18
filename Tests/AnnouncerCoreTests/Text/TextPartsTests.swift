import Testing

@testable import AnnouncerCore

/// How a long text is split into parts, each spoken as a message of its own.
@Suite struct TextPartsTests {
  @Test func aShortTextIsOnePart() {
    let text = "Build finished."
    #expect(TextParts.split(text).map { String(text[$0]) } == [text])
  }

  @Test func partsEndAfterASentenceInTheirSecondHalf() {
    let text = "The first sentence is here. The second one follows it. And a third."
    let parts = TextParts.split(text, longest: 40).map { String(text[$0]) }
    #expect(parts == ["The first sentence is here.", "The second one follows it. And a third."])
  }

  @Test func withoutASentenceEndPartsEndAtAWordBoundary() {
    let text = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    let parts = TextParts.split(text, longest: 20).map { String(text[$0]) }
    #expect(parts.allSatisfy { $0.count <= 20 })
    #expect(parts.allSatisfy { !$0.hasPrefix(" ") && !$0.hasSuffix(" ") })
    #expect(parts.joined(separator: " ") == text)
  }

  @Test func aTextWithoutSpacesIsCutAndNothingIsLost() {
    let text = String(repeating: "x", count: 95)
    let parts = TextParts.split(text, longest: 40).map { String(text[$0]) }
    #expect(parts.map(\.count) == [40, 40, 15])
    #expect(parts.joined() == text)
  }

  @Test func aMegabyteLineKeepsEveryWordInOrder() throws {
    let words = (0..<150_000).map { "w\($0)" }
    let text = words.joined(separator: " ")
    #expect(text.utf8.count > 1_000_000)
    let parts = TextParts.split(text).map { String(text[$0]) }
    #expect(parts.count > 1000)
    #expect(parts.allSatisfy { $0.count <= TextParts.longestPart })
    #expect(parts.joined(separator: " ").split(separator: " ").map(String.init) == words)
  }
}
