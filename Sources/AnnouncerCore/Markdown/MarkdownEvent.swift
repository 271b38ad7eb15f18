/// One step of a walk through a Markdown document, as a parser's iterator gives it:
/// entering and leaving a node, or a leaf. ``MarkdownProse`` turns a walk into sentences;
/// ``CmarkDocument`` makes one from cmark-gfm's tree.
package enum MarkdownEvent: Equatable, Sendable {
  case enter(MarkdownContainer)
  case exit(MarkdownContainer)
  /// Plain text.
  case text(String)
  /// A code span: its text, without the backticks.
  case code(String)
  /// A fenced or indented code block of this many lines.
  case codeBlock(lines: Int)
  /// A table of this many rows, not counting its header row. Its cells are not walked.
  case table(rows: Int)
  /// A soft or hard line break inside a paragraph.
  case lineBreak
  /// Raw HTML, inline or a block: never spoken.
  case html
}

/// The nodes of a Markdown document that hold others.
package enum MarkdownContainer: Equatable, Sendable {
  case paragraph
  case heading
  case listItem
  case blockQuote
  /// Emphasis, strong emphasis or strikethrough: their marks are not spoken.
  case emphasis
  /// A link to `url`; an autolink's text is the URL itself.
  case link(url: String)
  /// An image; its text is its description.
  case image
  /// Anything else that holds text (a list, the document, a footnote).
  case other
}
