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
    /// The line with surrounding white space removed; for an overlong line, only its start.
    var text: String
    /// Whether the line was longer than ``maxLineBytes``; such a line is rejected, not spoken.
    var isOverlong: Bool

    /// Creates a line.
    init(number: Int, text: String, isOverlong: Bool = false) {
      self.number = number
      self.text = text
      self.isOverlong = isOverlong
    }
  }

  /// The longest input line, in bytes: four mebibytes. A longer line is skipped with one
  /// sentence and counts as bad input, and reading it takes no more memory than this,
  /// so that `tr '\0' a </dev/zero | announce` cannot exhaust memory. A line of a
  /// mebibyte is still spoken (in parts); four mebibytes are days of speech.
  static let maxLineBytes = 4 << 20

  /// How much of an overlong line is kept, to name it in the rejection.
  static let overlongPrefixBytes = 80

  /// How many bytes one read of standard input takes.
  static let readSize = 64 << 10

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
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 1)
      defer { buffer.deallocate() }
      var splitter = LineSplitter()
      func hand(_ line: Line) {
        slots.wait()
        continuation.yield(line)
      }
      while true {
        let count = read(0, buffer.baseAddress, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        splitter.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]), each: hand)
      }
      splitter.finish(each: hand)
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

  /// Cuts bytes into lines as a terminal shows them: a line ends at `\n`, at `\r\n`,
  /// and at a lone `\r`, so that a progress bar redrawn with `\r` gives one line per
  /// redraw instead of one endless line.
  ///
  /// It finds line ends with `memchr` and copies the bytes between them in bulk, and it
  /// holds at most ``maxLineBytes`` of a line: past that, only the line's start is kept.
  struct LineSplitter {
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// The line read so far, or only its start once it is overlong.
    private var current: [UInt8] = []
    private var overlong = false
    private var number = 0
    /// The last byte fed was `\r`: a `\n` right after it ends no further line.
    private var afterCarriageReturn = false

    /// Feeds the next bytes of input; calls `each` for every non-blank line they end.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, each: (Line) -> Void) {
      guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
      let count = bytes.count
      /// Where `byte` is next, at or after `start`; `count` when it is not there.
      func next(_ byte: UInt8, from start: Int) -> Int {
        guard start < count, let found = memchr(base + start, Int32(byte), count - start) else {
          return count
        }
        return base.distance(to: UnsafeRawPointer(found))
      }
      var start = 0
      if afterCarriageReturn && bytes[0] == Self.lineFeed { start = 1 }
      afterCarriageReturn = false
      // Each kind of line end is looked for again only once it has been passed, so that
      // input with many of one kind and none of the other is not scanned over and over.
      var feed = next(Self.lineFeed, from: start)
      var carriage = next(Self.carriageReturn, from: start)
      while start < count {
        if feed < start { feed = next(Self.lineFeed, from: start) }
        if carriage < start { carriage = next(Self.carriageReturn, from: start) }
        let end = min(feed, carriage)
        keep(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        guard end < count else { return }
        endLine(each: each)
        start = end + 1
        if end == carriage {
          if start == count {
            afterCarriageReturn = true
          } else if bytes[start] == Self.lineFeed {
            start += 1
          }
        }
      }
    }

    /// Feeds `bytes`; for tests and callers that hold an array.
    mutating func feed(_ bytes: [UInt8], each: (Line) -> Void) {
      bytes.withUnsafeBytes { feed($0, each: each) }
    }

    /// Ends the input: a last line without a line end counts too.
    mutating func finish(each: (Line) -> Void) {
      if !current.isEmpty || overlong { endLine(each: each) }
    }

    /// Adds `bytes` to the current line, or only what fits of its start once it is too long.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
      guard !bytes.isEmpty else { return }
      if !overlong && current.count + bytes.count <= InputLines.maxLineBytes {
        let needed = current.count + bytes.count
        if needed > current.capacity {
          // Grown by hand so that the line never takes more than the limit.
          current.reserveCapacity(min(InputLines.maxLineBytes, max(needed, current.capacity * 2)))
        }
        current.append(contentsOf: bytes)
        return
      }
      if !overlong {
        overlong = true
        let room = InputLines.overlongPrefixBytes - min(current.count, InputLines.overlongPrefixBytes)
        current = Array(current.prefix(InputLines.overlongPrefixBytes)) + bytes.prefix(room)
      }
    }

    private mutating func endLine(each: (Line) -> Void) {
      number += 1
      let raw = String(decoding: current, as: UTF8.self)
      let isOverlong = overlong
      // A long line's storage is let go; a short one's is kept for the next line.
      current.removeAll(keepingCapacity: current.capacity <= InputLines.readSize)
      overlong = false
      if isOverlong {
        each(Line(number: number, text: raw + "…", isOverlong: true))
      } else if let text = InputLines.cleaned(raw) {
        each(Line(number: number, text: text))
      }
    }
  }

  /// `raw` without surrounding white space; `nil` when nothing is left.
  static func cleaned(_ raw: String) -> String? {
    let trimmed = raw.trimmingWhiteSpace
    return trimmed.isEmpty ? nil : trimmed
  }
}
