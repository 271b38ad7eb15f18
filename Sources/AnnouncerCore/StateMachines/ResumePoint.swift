/// Where the next attempt at one part of a plain text starts: at the beginning of
/// the first sentence the listener has not heard to its end.
///
/// Each attempt carries an index mark at every sentence boundary of the text it
/// speaks (see ``SentenceBoundaries``). A mark that was reported means the
/// sentence before it was spoken; after an interruption, the next attempt starts
/// after the last such sentence. A boundary whose mark was never reported is not
/// a place to resume from.
struct ResumePoint: Equatable {
  /// The prefix of the names of boundary marks; the final mark is named otherwise.
  static let markPrefix = "announce-sentence-"

  /// Where the next attempt starts.
  private(set) var start: String.Index
  /// For each boundary mark of the attempt in flight, where the sentence after it starts.
  private var boundaries: [String: String.Index] = [:]
  /// The furthest boundary the attempt in flight has reported.
  private var reached: String.Index?

  init(start: String.Index) { self.start = start }

  /// Plans an attempt that speaks `text` from ``start`` up to `end`, with a mark at
  /// each sentence boundary when `withMarks` is true. Returns what to say and its marks.
  mutating func planAttempt(
    of text: String, upTo end: String.Index, withMarks: Bool
  )
    -> (text: String, marks: [SpeechRequest.IndexMark])
  {
    boundaries = [:]
    reached = nil
    guard withMarks else { return (String(text[start..<end]), []) }
    var marks: [SpeechRequest.IndexMark] = []
    for (number, boundary) in SentenceBoundaries.find(in: text, within: start..<end).enumerated() {
      let name = Self.markPrefix + String(number + 1)
      boundaries[name] = boundary.next
      marks.append(
        SpeechRequest.IndexMark(name: name, offset: text.distance(from: start, to: boundary.mark)))
    }
    return (String(text[start..<end]), marks)
  }

  /// The attempt in flight reported the mark `name`.
  mutating func markReported(_ name: String) {
    guard let next = boundaries[name] else { return }
    reached = max(reached ?? next, next)
  }

  /// The attempt in flight was cut off: the next one starts after the last sentence it finished.
  mutating func attemptInterrupted() {
    if let reached { start = reached }
    boundaries = [:]
    reached = nil
  }
}
