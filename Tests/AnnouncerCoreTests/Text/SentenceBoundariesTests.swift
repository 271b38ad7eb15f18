import Foundation
import Testing

@testable import AnnouncerCore

/// Where a retry may start: sentence boundaries, and the SSML marks placed at them.
@Suite struct SentenceBoundariesTests {
  /// The sentences of `text` as the boundaries cut it, and the character each mark precedes.
  func cut(_ text: String) -> (sentences: [String], markedBefore: [Character]) {
    let boundaries = SentenceBoundaries.find(in: text)
    var starts = [text.startIndex] + boundaries.map(\.next)
    starts.append(text.endIndex)
    let sentences = zip(starts, starts.dropFirst()).map {
      String(text[$0..<$1]).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return (sentences, boundaries.map { text[$0.mark] })
  }

  @Test(arguments: [
    ("One. Two! Three? Four… Five.", ["One.", "Two!", "Three?", "Four…", "Five."]),
    ("line one\nline two\n\nline three", ["line one", "line two", "line three"]),
    ("Done.\nNext line", ["Done.", "Next line"]),
    ("Really?! Yes... Fine.", ["Really?!", "Yes...", "Fine."]),
    ("He said \"stop.\" Then left.", ["He said \"stop.\"", "Then left."]),
    ("Use tools, e.g. make. Then stop.", ["Use tools, e.g. make.", "Then stop."]),
    ("Ask Dr. Smith. He knows.", ["Ask Dr. Smith.", "He knows."]),
    ("Pi is 3.14 today. Version v1.2 is out.", ["Pi is 3.14 today.", "Version v1.2 is out."]),
    ("See mr. X i.e. him.", ["See mr. X i.e. him."]),
    ("No boundary at the end. ", ["No boundary at the end."]),
    ("Just one sentence", ["Just one sentence"]),
    ("www.example.com is up. Yes.", ["www.example.com is up.", "Yes."]),
  ])
  func sentences(text: String, expected: [String]) {
    #expect(cut(text).sentences == expected)
  }

  @Test func marksGoBeforeTheFinalPunctuationOrTheLineBreak() {
    // Measured: espeak-ng 1.51 loses a mark after a full stop, or after the space that
    // follows it, when more text follows; before the stop it reported every one.
    #expect(cut("One. Two?! Three… Four").markedBefore == [".", "?", "…"])
    #expect(cut("one\ntwo.\nthree").markedBefore == ["\n", "."])
    #expect(cut("He said \"stop.\" Then").markedBefore == ["."])
  }

  @Test func onlyTheGivenRangeIsSearched() {
    let text = "One. Two. Three. Four."
    let start = text.firstIndex(of: "T")!
    let end = text.firstIndex(of: "F")!
    let found = SentenceBoundaries.find(in: text, within: start..<end)
    #expect(found.map { String(text[$0.next...]) } == ["Three. Four."])
  }

  @Test func theSSMLDocumentCarriesEachMarkWhereItBelongs() {
    let marks = [
      SpeechRequest.IndexMark(name: "a", offset: 3), SpeechRequest.IndexMark(name: "b", offset: 8),
    ]
    #expect(
      SSMLDocument.speaking(plainText: "One. <2>. Three", marks: marks, finalMark: "f")
        == "<speak>One<mark name=\"a\"/>. &lt;2&gt;<mark name=\"b\"/>. Three<mark name=\"f\"/></speak>")
  }
}
