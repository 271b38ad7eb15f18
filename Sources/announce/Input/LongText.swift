/// How a long text, such as a coding agent's reply, is shortened for speech.
///
/// The rule (docs/agents.md and the manual page say it for users): a text of more than
/// ``limit`` characters is said up to the end of its last sentence that ends within the
/// first ``limit`` characters; when its first sentence alone is longer, up to its last
/// word within them, followed by "…". An agent's reply starts with what it did ("I fixed
/// the failing test.") and goes on with the details, which a listener reads on the screen
/// or in `announce history` afterwards.
enum LongText {
  /// The most characters said of a long text: about 15 seconds at speech-dispatcher's
  /// default rate, which says some 13 characters a second in English (espeak-ng at rate 0).
  static let limit = 200

  /// `text`, shortened for speech when longer than `limit` characters.
  static func shortened(_ text: String, limit: Int = limit) -> String {
    guard text.count > limit else { return text }
    let start = text.prefix(limit + 1)
    // The last sentence end within the limit: a full stop, question or exclamation mark
    // followed by a space, or the limit's very end.
    var cut: String.Index?
    var index = start.startIndex
    while index < start.endIndex {
      let next = start.index(after: index)
      if ".!?…".contains(start[index]), next == start.endIndex || start[next].isWhitespace {
        if next != start.endIndex || start.count <= limit { cut = next }
      }
      index = next
    }
    if let cut, cut > start.startIndex { return String(text[..<cut]) }
    let words = start.prefix(limit - 1)
    if let space = words.lastIndex(where: \.isWhitespace), space > words.startIndex {
      return String(words[..<space]) + "…"
    }
    return String(words) + "…"
  }
}
