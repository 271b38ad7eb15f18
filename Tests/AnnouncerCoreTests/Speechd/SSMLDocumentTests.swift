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
}
