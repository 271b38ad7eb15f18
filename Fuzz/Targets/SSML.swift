@testable import AnnouncerCore

/// `--ssml`: a document checked by ``SSMLValidator`` (libxml2 underneath), and the
/// documents announce makes itself.
///
/// - The check gives the same answer twice (libxml2 keeps global state).
/// - A problem's phrase is one line.
/// - A document the check accepts still passes it with the final mark added, the mark is in
///   it, and it is inside the `speak` element (a `</speak>` in a comment after the root
///   must not take it).
/// - Any plain text, cleaned as announce cleans it and escaped into SSML, passes the check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = inputText(data, size)
  let problem = SSMLValidator.check(text)
  require(problem == SSMLValidator.check(text), "the check gives the same answer twice")
  if let problem {
    require(isOneLine(problem.phrase), "a problem is one line: \(problem.phrase.debugDescription)")
  } else {
    let marked = SSMLDocument.speaking(ssml: text, finalMark: "announce-end")
    require(
      SSMLValidator.check(marked) == nil,
      "a valid document with its final mark is valid: \(marked.debugDescription)")
    require(
      SSMLDocument.speaking(ssml: marked, finalMark: "x").utf8.count > marked.utf8.count,
      "the mark is added")
    require(
      markIsInsideSpeak(marked),
      "the final mark is inside the speak element: \(marked.debugDescription)")
  }
  let plain = SpeakableText.cleaned(text)
  let document = SSMLDocument.speaking(plainText: plain, finalMark: "announce-end")
  if document.utf8.count <= SSMLValidator.maximumBytes {
    let found = SSMLValidator.check(document)
    require(
      found == nil,
      "a cleaned plain text makes a valid document: \(String(describing: found)) in \(document.debugDescription)"
    )
  }
  return 0
}

/// Whether the final mark comes before the last `</speak>` that is not in a comment, a
/// processing instruction or a CDATA section: libxml2's outline of the document, cut short.
func markIsInsideSpeak(_ document: String) -> Bool {
  let bytes = Array(document.utf8)
  let mark = Array("<mark name=\"announce-end\"/>".utf8)
  var index = 0
  var depth = 0
  var markDepth: Int?
  func starts(_ text: String, at position: Int) -> Bool {
    let pattern = Array(text.utf8)
    return position + pattern.count <= bytes.count
      && Array(bytes[position..<position + pattern.count]) == pattern
  }
  func skip(past end: String) {
    let pattern = Array(end.utf8)
    while index < bytes.count && !starts(end, at: index) { index += 1 }
    index += pattern.count
  }
  while index < bytes.count {
    if starts("<!--", at: index) {
      skip(past: "-->")
    } else if starts("<![CDATA[", at: index) {
      skip(past: "]]>")
    } else if starts("<?", at: index) {
      skip(past: "?>")
    } else if starts("<!", at: index) {
      // A DOCTYPE, with its internal subset in brackets.
      var brackets = 0
      while index < bytes.count {
        if bytes[index] == UInt8(ascii: "[") { brackets += 1 }
        if bytes[index] == UInt8(ascii: "]") { brackets -= 1 }
        if bytes[index] == UInt8(ascii: ">") && brackets <= 0 { break }
        index += 1
      }
      index += 1
    } else if index + mark.count <= bytes.count && Array(bytes[index..<index + mark.count]) == mark {
      markDepth = depth
      index += mark.count
    } else if starts("</", at: index) {
      depth -= 1
      skip(past: ">")
    } else if bytes[index] == UInt8(ascii: "<") {
      // A start tag; an attribute's value may hold `>`.
      var quote: UInt8?
      var selfClosing = false
      index += 1
      while index < bytes.count {
        let byte = bytes[index]
        if let open = quote {
          if byte == open { quote = nil }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == UInt8(ascii: ">") {
          selfClosing = bytes[index - 1] == UInt8(ascii: "/")
          break
        }
        index += 1
      }
      index += 1
      if !selfClosing { depth += 1 }
    } else {
      index += 1
    }
  }
  return markDepth.map { $0 >= 1 } ?? false
}
