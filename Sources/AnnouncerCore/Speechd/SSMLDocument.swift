import FoundationEssentials
import Glibc

/// Builds the SSML documents that are sent to speech-dispatcher.
///
/// User text is XML-escaped, so markup in it is spoken literally and can never
/// forge our final index mark. The final mark goes at the very end of the
/// document: espeak-ng 1.51 drops a mark that follows a full stop only when
/// more text follows it (espeak-ng issue #920), and a mark at the very end is
/// reported whatever the text ends with. The integration tests prove this for
/// texts ending in a full stop, a question mark and an exclamation mark.
enum SSMLDocument {
  /// A document that speaks `text` literally, reports each of `marks` where it
  /// lies in the text, and then reports `mark`.
  ///
  /// `text` was made speakable once, when the ``Announcer`` took it (``SpeakableText``):
  /// what XML cannot carry is gone, so escaping is all that is left to do.
  static func speaking(
    plainText text: String, marks: [SpeechRequest.IndexMark] = [], finalMark mark: String
  ) -> String {
    var document = "<speak>"
    var start = text.startIndex
    var position = 0
    for inner in marks where inner.offset >= position {
      guard let end = text.index(start, offsetBy: inner.offset - position, limitedBy: text.endIndex)
      else { break }
      document += escaped(text[start..<end])
      document += markElement(inner.name)
      start = end
      position = inner.offset
    }
    document += escaped(text[start...])
    return document + markElement(mark) + "</speak>"
  }

  /// The user's own SSML document with `mark` added where its root closes: just before its
  /// end tag, or in place of the `/>` of an empty `<speak/>`.
  ///
  /// The caller has checked that `document` is well-formed and has a `speak` root
  /// (``SSMLValidator``), so ``XMLRootClose`` can read where the root closes.
  static func speaking(ssml document: String, finalMark mark: String) -> String {
    // Read as bytes: a "prepend" character such as U+0600 joins the `<` after it into
    // one Character, so a Character-wise search would miss the closing tag.
    let bytes = Array(document.utf8)
    let element = Array(markElement(mark).utf8)
    switch XMLRootClose.find(in: bytes) {
    case .endTag(let start):
      // One array at a time: Swift 6.0.3 cannot type a slice + array + slice sum.
      let spliced: [UInt8] = Array(bytes[..<start]) + element + Array(bytes[start...])
      return String(decoding: spliced, as: UTF8.self)
    case .emptyElement(let slash):
      let closed = Array(">".utf8) + element + Array("</speak>".utf8)
      let spliced: [UInt8] = Array(bytes[..<slash]) + closed + Array(bytes[(slash + 2)...])
      return String(decoding: spliced, as: UTF8.self)
    case nil:
      return "<speak>\(document)\(markElement(mark))</speak>"
    }
  }

  /// A message that says nothing at all: an empty SSML document.
  ///
  /// Not a single space: speech-dispatcher 0.12.0 sends the module the word "space"
  /// for a message whose whole text is `" "` (`output_speak()`, upstream commit 4b443983,
  /// on purpose: brailcom/speechd #795, #796, #1009), and espeak-ng says it aloud for
  /// about 441 ms, which every user of Debian 13 heard and which delayed each retry by
  /// about 460 ms. Measured on an idle channel, BEGIN to END: 0.0 ms on 0.11.4 and
  /// 5.9 ms on 0.12.0, with no sound on either. Never `""` in SSML mode: it gets no
  /// events at all and crashed 0.11.4 in 3 of 3 runs.
  static let silent = "<speak></speak>"

  /// Escapes the five XML special characters, and carriage returns, which XML
  /// parsers would otherwise turn into line feeds.
  static func escaped<S: StringProtocol>(_ text: S) -> String {
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result.append(contentsOf: "&amp;".unicodeScalars)
      case "<": result.append(contentsOf: "&lt;".unicodeScalars)
      case ">": result.append(contentsOf: "&gt;".unicodeScalars)
      case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
      case "'": result.append(contentsOf: "&apos;".unicodeScalars)
      case "\r": result.append(contentsOf: "&#13;".unicodeScalars)
      default: result.append(scalar)
      }
    }
    return String(result)
  }

  private static func markElement(_ name: String) -> String {
    "<mark name=\"\(escaped(name))\"/>"
  }
}
