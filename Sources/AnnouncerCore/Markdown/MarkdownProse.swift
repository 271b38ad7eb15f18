/// Turns a Markdown document into what a listener wants to hear: sentences, without the
/// marks that only a reader of the source needs.
///
/// The rules (docs/agents.md has them for users):
/// - emphasis, strong emphasis, strikethrough and code spans lose their marks;
/// - a link is said by its text; an autolink or a bare URL, whose text is the URL, is said
///   as "link to HOST";
/// - an image is said by its description;
/// - a code block is said as "code block, N lines", and a table as "table, N rows";
/// - headings, list items and paragraphs each end as a sentence: a full stop is added when
///   they end without one;
/// - raw HTML is left out.
///
/// It reads a walk of the document (``MarkdownEvent``), so it never recurses: a document
/// nested 100,000 levels deep costs no stack.
package struct MarkdownProse {
  /// The words the rules add, in the user's language.
  package struct Wording: Sendable {
    package var codeBlock: @Sendable (_ lines: Int) -> String
    package var table: @Sendable (_ rows: Int) -> String
    package var link: @Sendable (_ host: String) -> String

    package init(
      codeBlock: @escaping @Sendable (Int) -> String, table: @escaping @Sendable (Int) -> String,
      link: @escaping @Sendable (String) -> String
    ) {
      self.codeBlock = codeBlock
      self.table = table
      self.link = link
    }

    /// "code block, 3 lines", "table, 1 row", "link to example.com".
    package static let english = Wording(
      codeBlock: { $0 == 1 ? "code block, 1 line" : "code block, \($0) lines" },
      table: { $0 == 1 ? "table, 1 row" : "table, \($0) rows" },
      link: { "link to \($0)" })
  }

  private let wording: Wording

  package init(wording: Wording = .english) {
    self.wording = wording
  }

  /// The document's sentences, joined by spaces.
  package func prose(of events: some Sequence<MarkdownEvent>) -> String {
    var sentences: [String] = []
    var current = ""
    // The text of each link being read, innermost last, to tell an autolink by its text.
    var links: [(url: String, text: String)] = []

    func add(_ text: String) {
      if links.isEmpty {
        current += text
      } else {
        links[links.count - 1].text += text
      }
    }
    func endSentence() {
      let sentence = Self.collapsed(current)
      current = ""
      guard !sentence.isEmpty else { return }
      sentences.append(Self.endsAsSentence(sentence) ? sentence : sentence + ".")
    }

    for event in events {
      switch event {
      case .text(let text), .code(let text):
        add(text)
      case .lineBreak:
        add(" ")
      case .html:
        break
      case .codeBlock(let lines):
        endSentence()
        current = wording.codeBlock(lines)
        endSentence()
      case .table(let rows):
        endSentence()
        current = wording.table(rows)
        endSentence()
      case .enter(.link(let url)):
        links.append((url, ""))
      case .exit(.link):
        guard let link = links.popLast() else { break }
        add(Self.isBare(link.text, url: link.url) ? wording.link(Self.host(of: link.url)) : link.text)
      case .enter(.paragraph), .enter(.heading), .enter(.listItem), .exit(.paragraph), .exit(.heading),
        .exit(.listItem), .exit(.blockQuote):
        endSentence()
      case .enter, .exit:
        break
      }
    }
    while let link = links.popLast() { add(link.text) }
    endSentence()
    return sentences.joined(separator: " ")
  }

  /// Whether a link's text is its URL, as an autolink's or a bare URL's is.
  static func isBare(_ text: String, url: String) -> Bool {
    let text = collapsed(text)
    return text.isEmpty || text == url || "mailto:" + text == url || "http://" + text == url
      || "https://" + text == url
  }

  /// The host of `url` (`example.com` of `https://user@example.com:8080/a`), or the address
  /// of a `mailto:` link.
  static func host(of url: String) -> String {
    var rest = Substring(url)
    if rest.hasPrefix("mailto:") { return String(rest.dropFirst("mailto:".count)) }
    if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
    rest = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    if rest.hasPrefix("["), let bracket = rest.firstIndex(of: "]") {
      rest = rest[...bracket]
    } else if let colon = rest.firstIndex(of: ":") {
      rest = rest[..<colon]
    }
    return rest.isEmpty ? url : String(rest)
  }

  /// Whitespace runs as one space, without space at either end.
  static func collapsed(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  static func endsAsSentence(_ sentence: String) -> Bool {
    guard let last = sentence.last else { return true }
    return ".!?:;…".contains(last)
  }
}
