import Testing

@testable import announce

/// How standard input is cut into lines: line ends as a terminal shows them, and a bound.
@Suite struct InputLinesTests {
  /// The lines of `chunks`, fed one after the other as separate reads.
  func lines(_ chunks: [[UInt8]]) -> [InputLines.Line] {
    var splitter = InputLines.LineSplitter()
    var lines: [InputLines.Line] = []
    for chunk in chunks { splitter.feed(chunk) { lines.append($0) } }
    splitter.finish { lines.append($0) }
    return lines
  }

  func lines(_ chunks: [String]) -> [InputLines.Line] { lines(chunks.map { Array($0.utf8) }) }

  /// `text` cut into reads of `size` bytes.
  func reads(_ text: String, of size: Int) -> [[UInt8]] {
    let bytes = Array(text.utf8)
    return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
  }

  @Test func aLoneCarriageReturnEndsALine() {
    let read = lines(["10%\r20%\r30%\rdone\n"])
    #expect(read.map(\.text) == ["10%", "20%", "30%", "done"])
    #expect(read.map(\.number) == [1, 2, 3, 4])
  }

  @Test func carriageReturnLineFeedIsOneLineEnd() {
    let read = lines(["one\r\ntwo\r\n\r\nfour\n\rsix"])
    #expect(read.map(\.text) == ["one", "two", "four", "six"])
    #expect(read.map(\.number) == [1, 2, 4, 6])
  }

  @Test func carriageReturnLineFeedSplitBetweenReadsIsOneLineEnd() {
    let split = lines(["one\r", "\ntwo\r", "\n", "\nfour\r", "five"])
    #expect(split.map(\.text) == ["one", "two", "four", "five"])
    #expect(split.map(\.number) == [1, 2, 4, 5])
  }

  /// Every way of cutting the input into reads gives the same lines as one read.
  @Test(arguments: 1...7) func readsOfAnySizeGiveTheSameLines(size: Int) {
    let text = "a\r\nbb\r\rccc\n\n\r\ndddd\re\r\n"
    let whole = lines([text])
    #expect(whole.map(\.text) == ["a", "bb", "ccc", "dddd", "e"])
    #expect(lines(reads(text, of: size)) == whole)
  }

  @Test func aLastLineWithoutALineEndCounts() {
    #expect(lines(["a\nb"]).map(\.text) == ["a", "b"])
    #expect(lines(["a\r"]).map(\.text) == ["a"])
    #expect(lines(["  \n \r"]).isEmpty)
  }

  @Test func aLineExactlyAtTheLimitIsKeptWhole() {
    let exact = String(repeating: "b", count: InputLines.maxLineBytes)
    for read in [lines([exact]), lines([exact + "\n"]), lines(reads(exact + "\r\n", of: 100_000))] {
      #expect(read.count == 1)
      #expect(read.first?.isOverlong == false)
      #expect(read.first?.text.utf8.count == InputLines.maxLineBytes)
    }
  }

  @Test func aLineOverTheLimitIsMarkedAndOnlyItsStartKept() {
    let long = String(repeating: "a", count: InputLines.maxLineBytes + 1)
    for read in [lines([long, "\nnext\n"]), lines(reads(long + "\nnext\n", of: 65_536)), lines([long])] {
      let first = read.first
      #expect(first?.isOverlong == true)
      #expect(first?.number == 1)
      #expect(first?.text == String(repeating: "a", count: InputLines.overlongPrefixBytes) + "…")
      #expect(read.dropFirst().allSatisfy { $0 == InputLines.Line(number: 2, text: "next") })
    }
  }

  @Test func aLineOverTheLimitEndedByACarriageReturnLetsTheNextLineThrough() {
    let read = lines([String(repeating: "x", count: InputLines.maxLineBytes), "y\r", "\nok\r"])
    #expect(read.map(\.isOverlong) == [true, false])
    #expect(read.last == InputLines.Line(number: 2, text: "ok"))
  }
}
