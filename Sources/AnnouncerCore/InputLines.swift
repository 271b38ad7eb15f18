import Foundation

/// Reads standard input line by line as the lines arrive, so `tail -f log | announce`
/// speaks the first line before the input ends.
public enum InputLines {
  /// One non-blank line of input.
  public struct Line: Sendable, Equatable {
    /// Its number in the input, starting at 1, blank lines included.
    public var number: Int
    /// The line with a trailing carriage return and surrounding white space removed.
    public var text: String

    /// Creates a line.
    public init(number: Int, text: String) {
      self.number = number
      self.text = text
    }
  }

  /// The non-blank lines of standard input. Invalid UTF-8 is replaced, not fatal.
  public static func standardInput() -> AsyncStream<Line> {
    let (stream, continuation) = AsyncStream.makeStream(of: Line.self)
    let thread = Thread {
      var number = 0
      while let raw = readLine(strippingNewline: true) {
        number += 1
        if let line = cleaned(raw) { continuation.yield(Line(number: number, text: line)) }
      }
      continuation.finish()
    }
    thread.name = "announce.stdin"
    thread.start()
    return stream
  }

  /// `raw` without a trailing `\r` and surrounding white space; `nil` when nothing is left.
  public static func cleaned(_ raw: String) -> String? {
    let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}
