import AnnouncerCore
import FoundationEssentials
import Dispatch
import Glibc

/// Reads standard input line by line as the lines arrive, so `tail -f log | announce`
/// speaks the first line before the input ends.
enum InputLines {
  /// One non-blank line of input.
  struct Line: Sendable, Equatable {
    /// Its number in the input, starting at 1, blank lines included.
    var number: Int
    /// The line with a trailing carriage return and surrounding white space removed.
    var text: String

    /// Creates a line.
    init(number: Int, text: String) {
      self.number = number
      self.text = text
    }
  }

  /// How many read lines may wait to be taken before reading pauses.
  static let readAhead = 64

  /// The non-blank lines of standard input. Invalid UTF-8 is replaced, not fatal.
  ///
  /// Reading pauses while ``readAhead`` lines wait to be taken, so a flood on
  /// standard input fills the pipe, not memory.
  static func standardInput() -> AsyncStream<Line> {
    let slots = DispatchSemaphore(value: readAhead)
    let (lines, continuation) = AsyncStream.makeStream(of: Line.self)
    let started = SystemThread.start {
      var number = 0
      while let raw = readLine(strippingNewline: true) {
        number += 1
        guard let line = cleaned(raw) else { continue }
        slots.wait()
        continuation.yield(Line(number: number, text: line))
      }
      continuation.finish()
    }
    if !started { continuation.finish() }
    let reader = SingleReader(lines.makeAsyncIterator())
    return AsyncStream {
      let line = await reader.next()
      if line != nil { slots.signal() }
      return line
    }
  }

  /// Holds the one iterator of the line stream; only the stream's consumer calls it.
  private final class SingleReader: @unchecked Sendable {
    private var iterator: AsyncStream<Line>.Iterator
    init(_ iterator: AsyncStream<Line>.Iterator) { self.iterator = iterator }
    func next() async -> Line? { await iterator.next() }
  }

  /// `raw` without a trailing `\r` and surrounding white space; `nil` when nothing is left.
  static func cleaned(_ raw: String) -> String? {
    let trimmed = raw.trimmingWhiteSpace
    return trimmed.isEmpty ? nil : trimmed
  }
}
