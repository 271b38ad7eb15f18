/// Splits a long plain text into parts that are spoken one after another.
///
/// A very long line (a log dump, a whole file on one line) would reach the
/// speech service as one huge message: slow to start and lost in full if it is
/// interrupted near its end. Instead it is spoken part by part, each part one
/// message, and an interruption repeats only the part it cut off.
///
/// Parts end after a sentence (`.`, `!`, `?`, `;` or `:` followed by a space)
/// where one falls in the second half of the allowed length, otherwise after
/// the last space, and only a text with no space at all is cut mid-word. No
/// character is dropped except the spaces a part starts with.
package enum TextParts {
  /// The most characters one part holds: about half a minute of speech.
  package static let longestPart = 500

  /// The ranges of `text`'s parts, in order; one range when it is short enough.
  package static func split(
    _ text: String, longest: Int = longestPart
  )
    -> [Range<String.Index>]
  {
    precondition(longest > 1, "A part holds at least two characters.")
    var parts: [Range<String.Index>] = []
    var start = text.startIndex
    while start < text.endIndex {
      let end = endOfPart(in: text, from: start, longest: longest)
      parts.append(start..<end)
      start = end
      while start < text.endIndex, text[start].isWhitespace { start = text.index(after: start) }
    }
    return parts.isEmpty ? [text.startIndex..<text.endIndex] : parts
  }

  /// Where the part starting at `start` ends.
  private static func endOfPart(
    in text: String, from start: String.Index, longest: Int
  )
    -> String.Index
  {
    var afterSentence: String.Index?
    var afterSpace: String.Index?
    var index = start
    var count = 0
    var previous: Character?
    while index < text.endIndex {
      if count == longest { break }
      let character = text[index]
      if character.isWhitespace, let previous {
        afterSpace = index
        if count * 2 >= longest, ".!?;:".contains(previous) { afterSentence = index }
      }
      previous = character
      index = text.index(after: index)
      count += 1
    }
    if index == text.endIndex { return index }
    return afterSentence ?? afterSpace ?? index
  }
}
