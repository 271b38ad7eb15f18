import AnnouncerCore

/// How each input becomes the text of an announcement: the input's format, the JSON
/// fields that hold the text and its source, whether the text is Markdown, and whether a
/// long text is shortened for speech. The command line makes one (``ReadingOptions``);
/// the hooks and `announce replay` read plain text.
struct TextReading: Sendable, Equatable {
  /// How the input is read: plain lines, JSON lines, or one JSON document.
  var format = InputOptions.Format.lines
  /// The field of a JSON object that holds the text (`--text-field`).
  var textField = "text"
  /// Where the text came from, said before it (`--source`).
  var source: String?
  /// The field of a JSON object whose value names the source (`--source-field`).
  var sourceField: String?
  /// Whether the text is Markdown, said as ``MarkdownProse`` says it (`--markdown`).
  var markdown = false
  /// Whether a long text is said whole (`--full-text`) rather than shortened.
  var fullText = false
  /// The catalog of the language the Markdown rules' own words ("code block, 3 lines") are
  /// said in, the run's spoken language (``SpokenLanguage``), such as `de`; `nil` for English.
  var wordsLanguage: String?

  /// Whether the input is JSON, whose fields `--text-field` and `--source-field` name.
  var readsJSON: Bool { format == .json || format == .jsonDocument }

  /// Whether a long text is shortened for speech (``LongText``): a Markdown text or a
  /// JSON document is someone's reply, which a listener wants the gist of; a plain line,
  /// such as a log's, is said whole, as it always was.
  var shortens: Bool { !fullText && (markdown || format == .jsonDocument) }

  /// The longest source said, in characters: a folder's name is shorter, and a hostile
  /// `cwd` of a megabyte must not drown the message.
  static let longestSource = 80

  /// `text` as it is said: Markdown as prose, shortened when long, after its source.
  func spoken(_ text: String, source found: String?) -> String { said(text, source: found).spoken }

  /// `text` as it is said, and, when that is a shortening, the whole of it as it would be
  /// said with `--full-text`, which the history keeps instead.
  func said(_ text: String, source found: String?) -> (spoken: String, whole: String?) {
    var prose = text
    if markdown, let events = CmarkDocument.events(of: text) {
      prose = MarkdownProse(wording: Self.markdownWords(in: wordsLanguage.map(Wording.language) ?? .english))
        .prose(of: events)
    }
    let spoken = shortens ? LongText.shortened(prose) : prose
    let prefix = Self.named(found ?? source).map { $0 + ": " } ?? ""
    return (prefix + spoken, spoken == prose ? nil : prefix + prose)
  }

  /// The words the Markdown rules add, in `wording`'s language.
  static func markdownWords(in wording: Wording) -> MarkdownProse.Wording {
    MarkdownProse.Wording(
      codeBlock: { lines in
        wording.localized("code block, {count} line", plural: "code block, {count} lines", count: lines)
          .replacingBytes(of: "{count}", with: String(lines))
      },
      table: { rows in
        wording.localized("table, {count} row", plural: "table, {count} rows", count: rows)
          .replacingBytes(of: "{count}", with: String(rows))
      },
      link: { host in wording.localized("link to {host}").replacingBytes(of: "{host}", with: host) })
  }

  /// The name a source is said by: the last component of a path (`/home/ana/shop/` is
  /// `shop`), on one line, cut to ``longestSource`` characters; `nil` when nothing is left.
  static func named(_ source: String?) -> String? {
    guard let source, let component = source.split(separator: "/").last else { return nil }
    let words = component.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    guard !words.isEmpty else { return nil }
    return words.count > longestSource ? String(words.prefix(longestSource - 1)) + "…" : words
  }
}

extension DeliveryLoop {
  /// Delivers every line read as plain `format`, with no field, source or Markdown.
  func run(_ lines: AsyncStream<InputLines.Line>, format: InputOptions.Format) async -> RunSummary {
    await run(lines, reading: TextReading(format: format))
  }
}
