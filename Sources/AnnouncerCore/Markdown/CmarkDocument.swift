import CCmarkGFM

/// A Markdown document parsed by cmark-gfm, with GitHub's tables, autolinks and
/// strikethrough, as a walk of ``MarkdownEvent``s.
package enum CmarkDocument {
  /// Whether cmark-gfm is installed; asking loads it.
  package static var isAvailable: Bool { Libcmark.shared != nil }

  /// The walk of `markdown`; `nil` when cmark-gfm is not installed.
  ///
  /// cmark's iterator walks the tree without recursion, so a hostile document (100,000
  /// nested quotes, a link with no end) costs memory in proportion to its size, never stack.
  package static func events(of markdown: String) -> [MarkdownEvent]? {
    guard let cmark = Libcmark.shared, let parser = cmark.parserNew(CMARK_OPT_DEFAULT) else { return nil }
    defer { cmark.parserFree(parser) }
    for name in ["table", "autolink", "strikethrough"] {
      if let syntax = cmark.findExtension(name) { _ = cmark.attachExtension(parser, syntax) }
    }
    var text = markdown
    text.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { characters in
        if let base = characters.baseAddress { cmark.parserFeed(parser, base, characters.count) }
      }
    }
    guard let document = cmark.parserFinish(parser) else { return [] }
    defer { cmark.nodeFree(document) }
    guard let iterator = cmark.iterNew(document) else { return [] }
    defer { cmark.iterFree(iterator) }
    return Walk(cmark: cmark).events(from: iterator)
  }

  private struct Walk {
    let cmark: Libcmark

    func events(from iterator: OpaquePointer) -> [MarkdownEvent] {
      var events: [MarkdownEvent] = []
      // A table's cells are not walked: the table is said by its size.
      var skipping: Libcmark.Node?
      while true {
        let step = cmark.iterNext(iterator)
        guard step == CMARK_EVENT_ENTER || step == CMARK_EVENT_EXIT, let node = cmark.iterNode(iterator)
        else {
          break
        }
        let entering = step == CMARK_EVENT_ENTER
        if let table = skipping {
          if !entering && node == table { skipping = nil }
          continue
        }
        switch cmark.nodeType(node) {
        case CMARK_NODE_TEXT: events.append(.text(literal(node)))
        case CMARK_NODE_CODE: events.append(.code(literal(node)))
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: events.append(.lineBreak)
        case CMARK_NODE_HTML_INLINE, CMARK_NODE_HTML_BLOCK: events.append(.html)
        case CMARK_NODE_CODE_BLOCK: events.append(.codeBlock(lines: Self.lineCount(literal(node))))
        default:
          if typeName(node) == "table" {
            events.append(.table(rows: bodyRows(of: node)))
            if entering { skipping = node }
          } else {
            let container = container(node)
            events.append(entering ? .enter(container) : .exit(container))
          }
        }
      }
      return events
    }

    private func container(_ node: Libcmark.Node) -> MarkdownContainer {
      switch cmark.nodeType(node) {
      case CMARK_NODE_PARAGRAPH: .paragraph
      case CMARK_NODE_HEADING: .heading
      case CMARK_NODE_ITEM: .listItem
      case CMARK_NODE_BLOCK_QUOTE: .blockQuote
      case CMARK_NODE_EMPH, CMARK_NODE_STRONG: .emphasis
      case CMARK_NODE_LINK: .link(url: cmark.nodeURL(node).map { String(cString: $0) } ?? "")
      case CMARK_NODE_IMAGE: .image
      default: typeName(node) == "strikethrough" ? .emphasis : .other
      }
    }

    private func bodyRows(of table: Libcmark.Node) -> Int {
      var rows = 0
      var row = cmark.firstChild(table)
      while let current = row {
        if cmark.rowIsHeader(current) == 0 { rows += 1 }
        row = cmark.next(current)
      }
      return rows
    }

    private func literal(_ node: Libcmark.Node) -> String {
      cmark.nodeLiteral(node).map { String(cString: $0) } ?? ""
    }

    private func typeName(_ node: Libcmark.Node) -> String {
      cmark.nodeTypeString(node).map { String(cString: $0) } ?? ""
    }

    /// The lines of a code block's text, which ends with a line break.
    static func lineCount(_ text: String) -> Int {
      let breaks = text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
      return text.hasSuffix("\n") || text.isEmpty ? breaks : breaks + 1
    }
  }
}
