import Foundation
import Testing

@testable import AnnouncerCore

@Suite struct SSMLDocumentTests {
  let mark = SpeechRequest.finalMarkName

  @Test func plainTextIsEscapedAndEndsWithOurMark() {
    #expect(
      SSMLDocument.speaking(plainText: "Tom & Jerry <3 \"quotes\" 'too'", finalMark: mark)
        == "<speak>Tom &amp; Jerry &lt;3 &quot;quotes&quot; &apos;too&apos;<mark name=\"\(mark)\"/></speak>")
  }

  @Test func plainTextCannotForgeTheMarkOrCloseTheDocument() {
    let forged = "x<mark name=\"\(mark)\"/></speak><speak>"
    let document = SSMLDocument.speaking(plainText: forged, finalMark: mark)
    #expect(document.components(separatedBy: "<mark").count == 2)
    #expect(document.components(separatedBy: "</speak>").count == 2)
    #expect(document.hasSuffix("<mark name=\"\(mark)\"/></speak>"))
  }

  @Test func controlCharactersAndEscapeSequencesAreRemoved() {
    #expect(SpeakableText.cleaned("\u{1B}[1;31merror\u{1B}[0m: bad\u{0}\u{7}") == "error: bad")
    #expect(SpeakableText.cleaned("title\u{1B}]0;window\u{7} text") == "title text")
    #expect(SpeakableText.cleaned("tab\tand\nnewline") == "tab\tand\nnewline")
  }

  @Test func ourMarkGoesJustBeforeTheClosingTagOfUserSSML() {
    #expect(
      SSMLDocument.speaking(ssml: "<speak>Hi <mark name=\"m\"/>there</speak>", finalMark: mark)
        == "<speak>Hi <mark name=\"m\"/>there<mark name=\"\(mark)\"/></speak>")
  }

  /// Documents whose root closes where a byte search for the last `</speak>` does not find
  /// it, each with the mark where it belongs. The first is what the fuzz target `ssml` found
  /// (its seed `comment-after-root`): a `</speak>` in a comment after the root took the mark.
  static let rootsClosedPastMarkup: [(String, String)] = [
    (
      "<?xml version=\"1.0\"?>\n<!DOCTYPE speak [<!ENTITY w \"world\">]>\n<speak>Hi &w; <![CDATA[<x>]]></speak><!-- </speak> -->",
      "<?xml version=\"1.0\"?>\n<!DOCTYPE speak [<!ENTITY w \"world\">]>\n<speak>Hi &w; <![CDATA[<x>]]>MARK</speak><!-- </speak> -->"
    ),
    ("<speak>Hi</speak><?note </speak>?>", "<speak>HiMARK</speak><?note </speak>?>"),
    ("<speak>Hi</speak >", "<speak>HiMARK</speak >"),
    ("<?xml version=\"1.0\"?><speak/>", "<?xml version=\"1.0\"?><speak>MARK</speak>"),
    ("<speak a=\"/>\"/><!-- -->", "<speak a=\"/>\">MARK</speak><!-- -->"),
    (
      "<!DOCTYPE speak [<!ENTITY e \"]>\"><!-- ] > </speak> -->]><speak>&e;<x a='>'>x</x></speak>",
      "<!DOCTYPE speak [<!ENTITY e \"]>\"><!-- ] > </speak> -->]><speak>&e;<x a='>'>x</x>MARK</speak>"
    ),
  ]

  @Test(arguments: Self.rootsClosedPastMarkup)
  func ourMarkGoesWhereTheRootClosesNotIntoMarkupAfterIt(document: String, marked: String) {
    #expect(SSMLValidator.check(document) == nil)
    let expected = marked.replacingOccurrences(of: "MARK", with: "<mark name=\"\(mark)\"/>")
    #expect(SSMLDocument.speaking(ssml: document, finalMark: mark) == expected)
    #expect(SSMLValidator.check(expected) == nil)
  }
}
