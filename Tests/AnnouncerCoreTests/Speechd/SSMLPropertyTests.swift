import Foundation
import Testing

@testable import AnnouncerCore
import PropertyTesting

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// For any text at all, the document we send is well-formed XML, carries the text back
/// unchanged (after cleaning), and holds exactly one mark: ours, at the end.
@Suite struct SSMLPropertyTests {
  static let fragments = [
    "<mark name=\"announce-final\"/>", "</speak>", "<speak>", "&amp;", "&", "<", ">", "\"", "'",
    "]]>", "<!--", "-->", "<![CDATA[", "\u{1B}[31m", "\u{1B}]0;title\u{7}", "\u{0}", "\r\n", "\r",
    "\t", "é", "日本", "🎉", "\u{FFFE}", "\u{7F}", "\u{85}", "Saved.", " ",
  ]

  /// Parses `document` and returns its character data and the names of its marks,
  /// or `nil` when it is not well-formed.
  func parse(_ document: String) -> (text: String, marks: [String])? {
    final class Collector: NSObject, XMLParserDelegate {
      var text = ""
      var marks: [String] = []
      func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
      func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
      ) {
        if elementName == "mark" { marks.append(attributes["name"] ?? "") }
      }
    }
    let parser = XMLParser(data: Data(document.utf8))
    let collector = Collector()
    parser.delegate = collector
    guard parser.parse(), parser.parserError == nil else { return nil }
    return (collector.text, collector.marks)
  }

  /// Checks the document built from `text` as the announcer builds it: made speakable
  /// once when it is queued, then escaped into SSML.
  func check(_ text: String) {
    let document = SSMLDocument.speaking(
      plainText: SpeakableText.cleaned(text), finalMark: SpeechRequest.finalMarkName)
    guard let parsed = parse(document) else {
      Issue.record("not well-formed: \(document.debugDescription)")
      return
    }
    #expect(parsed.text == SpeakableText.cleaned(text), "for \(text.debugDescription)")
    #expect(parsed.marks == [SpeechRequest.finalMarkName])
    // Compared as bytes: a "prepend" character such as U+0600 joins the `<` after it
    // into one Character, so a Character-wise hasSuffix would miss a correct ending.
    let ending = "<mark name=\"\(SpeechRequest.finalMarkName)\"/></speak>"
    #expect(document.utf8.reversed().starts(with: ending.utf8.reversed()))
  }

  @Test func anyASCIITextMakesAWellFormedDocumentThatCarriesItBack() {
    propertyCheck(count: 300, input: Gen.ascii.string(of: 0...60)) { check($0) }
  }

  @Test func anyTextBelowTheSurrogatesMakesAWellFormedDocument() {
    propertyCheck(count: 300, input: Gen.character(in: 0...0xD7FF).string(of: 0...40)) {
      check($0)
    }
  }

  @Test func markupAndEscapeFragmentsCannotForgeTheMarkOrBreakTheDocument() {
    let fragment = Gen.element(of: Self.fragments)
    propertyCheck(count: 500, input: fragment.array(of: 0...12)) { check($0.joined()) }
  }

  @Test func cleaningRemovesEveryControlCharacterButTabAndLineBreaks() {
    propertyCheck(count: 300, input: Gen.latin1.string(of: 0...60)) { text in
      let cleaned = SpeakableText.cleaned(text)
      #expect(
        cleaned.unicodeScalars.allSatisfy { scalar in
          !(scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value))
            || ["\t", "\n", "\r"].contains(scalar)
        })
    }
  }
}
