/// Where the root element of a well-formed XML document closes, found by reading its markup
/// as XML does: comments, processing instructions, CDATA sections, the document type
/// declaration and quoted attribute values are skipped, so that a `</speak>` inside one of
/// them is text. A byte search for the last `</speak>` took one in a comment after the root
/// (the fuzz target `ssml` found it: the final mark went into the comment, and no mark
/// ended the announcement).
///
/// It reads only a document that ``SSMLValidator`` accepted; of anything else it may say
/// nothing, or something wrong.
enum XMLRootClose {
  /// Where the root's content ends.
  enum Place: Equatable {
    /// The root's end tag, such as `</speak>`, begins at this byte offset.
    case endTag(Int)
    /// The root is one empty-element tag, such as `<speak/>`, whose `/>` begins at this byte offset.
    case emptyElement(Int)
  }

  /// Where the root element of `document`, as UTF-8 bytes, closes; `nil` when it has none.
  static func find(in document: [UInt8]) -> Place? {
    var reader = Reader(bytes: document)
    return reader.rootClose()
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func rootClose() -> Place? {
      while index < bytes.count {
        guard bytes[index] == UInt8(ascii: "<") else {
          index += 1
          continue
        }
        if starts(with: "<!--") {
          skip(past: "-->")
        } else if starts(with: "<![CDATA[") {
          skip(past: "]]>")
        } else if starts(with: "<?") {
          skip(past: "?>")
        } else if starts(with: "<!") {
          skipDeclaration()
        } else if starts(with: "</") {
          if depth == 1 { return .endTag(index) }
          depth -= 1
          skip(past: ">")
        } else {
          let slash = skipStartTag()
          if let slash, depth == 0 { return .emptyElement(slash) }
          if slash == nil { depth += 1 }
        }
      }
      return nil
    }

    /// Whether the bytes at `index` are `text`.
    func starts(with text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard index + count <= bytes.count else { return false }
      return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
    }

    /// Moves past the next `end`, or to the end of the document.
    mutating func skip(past end: StaticString) {
      while index < bytes.count && !starts(with: end) { index += 1 }
      index = min(bytes.count, index + end.utf8CodeUnitCount)
    }

    /// Moves past the quoted literal that starts at `index`.
    mutating func skipQuoted() {
      let quote = bytes[index]
      index += 1
      while index < bytes.count && bytes[index] != quote { index += 1 }
      index += 1
    }

    /// Moves past a start tag or an empty-element tag; the offset of its `/>` when it is
    /// an empty-element tag. An attribute's value may hold `>`, but never `<`.
    mutating func skipStartTag() -> Int? {
      index += 1
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
          skipQuoted()
        case UInt8(ascii: ">"):
          let slash = bytes[index - 1] == UInt8(ascii: "/") ? index - 1 : nil
          index += 1
          return slash
        default:
          index += 1
        }
      }
      return nil
    }

    /// Moves past a document type declaration: its literals and its internal subset in
    /// brackets may hold `>`, and the subset's comments, processing instructions and
    /// literals may hold `]`.
    mutating func skipDeclaration() {
      index += 2
      var inSubset = false
      while index < bytes.count {
        if inSubset && starts(with: "<!--") {
          skip(past: "-->")
          continue
        }
        if inSubset && starts(with: "<?") {
          skip(past: "?>")
          continue
        }
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
          skipQuoted()
        case UInt8(ascii: "["):
          inSubset = true
          index += 1
        case UInt8(ascii: "]"):
          inSubset = false
          index += 1
        case UInt8(ascii: ">") where !inSubset:
          index += 1
          return
        default:
          index += 1
        }
      }
    }
  }
}
