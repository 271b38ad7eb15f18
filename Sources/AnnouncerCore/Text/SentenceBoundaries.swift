/// Finds where one sentence of a plain text ends and the next begins, so that a
/// retry can start at the sentence that was cut off.
///
/// A sentence ends at `.`, `!`, `?` or `…` (or a run of them, such as `?!` or
/// `...`, optionally followed by closing quotes or brackets) followed by white
/// space, or at a line break. A full stop after a common abbreviation ("e.g.",
/// "Dr.") ends nothing, and one inside a number ("3.14", "v1.2") is never
/// followed by white space. It is deliberately simple: it only chooses where a
/// retry may start, and a missed boundary only means a retry repeats a little more.
package enum SentenceBoundaries {
  /// One place between two sentences.
  package struct Boundary: Equatable, Sendable {
    /// Where the index mark goes: just before the sentence's final punctuation, or
    /// before the line break. espeak-ng 1.51 loses a mark placed after a full stop
    /// (or after the space that follows it) when more text follows; before the stop
    /// it reported every one (bench/marks.py: 30 of 30, against 15 of 30 after the
    /// stop or after the space; see BENCHMARKS.md).
    package var mark: String.Index
    /// Where the next sentence starts: after the punctuation and the white space.
    package var next: String.Index
  }

  /// Words that end with a full stop without ending a sentence, in lower case and without that stop.
  static let abbreviations: Set<String> = [
    "e.g", "i.e", "cf", "vs", "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "fig", "approx",
    "ca", "dept", "z.b", "bzw",
  ]

  private static let terminators: Set<Character> = [".", "!", "?", "…"]
  private static let closers: Set<Character> = ["\"", "'", ")", "]", "»", "”", "’"]

  /// The boundaries within `range` of `text`, in order. A boundary is only reported
  /// when a sentence follows it inside `range`.
  package static func find(in text: String, within range: Range<String.Index>) -> [Boundary] {
    var boundaries: [Boundary] = []
    var index = range.lowerBound
    while index < range.upperBound {
      let character = text[index]
      if character.isNewline {
        // A line ending in punctuation gets its mark before that punctuation.
        let mark = startOfTerminatorRun(in: text, before: index, from: range.lowerBound) ?? index
        let next = skipWhitespace(in: text, from: index, to: range.upperBound)
        if next < range.upperBound, mark > range.lowerBound {
          boundaries.append(Boundary(mark: mark, next: next))
        }
        index = next
        continue
      }
      guard terminators.contains(character) else {
        index = text.index(after: index)
        continue
      }
      var end = text.index(after: index)
      while end < range.upperBound, terminators.contains(text[end]) { end = text.index(after: end) }
      while end < range.upperBound, closers.contains(text[end]) { end = text.index(after: end) }
      guard end < range.upperBound, text[end].isWhitespace, !text[end].isNewline else {
        index = end
        continue
      }
      if character == "." && isAbbreviation(in: text, before: index, from: range.lowerBound) {
        index = end
        continue
      }
      let next = skipWhitespace(in: text, from: end, to: range.upperBound)
      if next < range.upperBound, index > range.lowerBound {
        boundaries.append(Boundary(mark: index, next: next))
      }
      index = next
    }
    return boundaries
  }

  /// The boundaries of the whole of `text`.
  package static func find(in text: String) -> [Boundary] {
    find(in: text, within: text.startIndex..<text.endIndex)
  }

  private static func skipWhitespace(
    in text: String, from start: String.Index, to end: String.Index
  )
    -> String.Index
  {
    var index = start
    while index < end, text[index].isWhitespace { index = text.index(after: index) }
    return index
  }

  /// Where the run of sentence punctuation (and closers) that ends just before `end` starts, if any.
  private static func startOfTerminatorRun(
    in text: String, before end: String.Index, from start: String.Index
  ) -> String.Index? {
    var index = end
    // Trailing spaces before the line break belong to the line.
    while index > start, text[text.index(before: index)].isWhitespace,
      !text[text.index(before: index)].isNewline
    {
      index = text.index(before: index)
    }
    while index > start, closers.contains(text[text.index(before: index)]) {
      index = text.index(before: index)
    }
    var runStart: String.Index?
    while index > start, terminators.contains(text[text.index(before: index)]) {
      index = text.index(before: index)
      runStart = index
    }
    guard let runStart, runStart > start else { return nil }
    return runStart
  }

  /// Whether the word that ends just before the full stop at `stop` is a known abbreviation.
  private static func isAbbreviation(
    in text: String, before stop: String.Index, from start: String.Index
  ) -> Bool {
    var index = stop
    while index > start, !text[text.index(before: index)].isWhitespace {
      index = text.index(before: index)
    }
    var word = text[index..<stop].lowercased()
    while let first = word.first, closers.contains(first) || first == "(" || first == "\"" {
      word.removeFirst()
    }
    return abbreviations.contains(word)
  }
}
