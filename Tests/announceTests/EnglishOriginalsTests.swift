import Testing

@testable import announce

/// The English of the lines made in another language is kept for the newest lines only,
/// so that a long run does not keep every line it printed.
@Suite(.serialized) struct EnglishOriginalsTests {
  @Test func onlyTheNewestLinesAreKept() {
    let run = "englishOriginals-\(UInt64.random(in: 0...UInt64.max))"
    let lines = (0...EnglishOriginals.limit).map { "\(run) Zeile \($0)" }
    for (index, line) in lines.enumerated() {
      EnglishOriginals.remember(line, english: "\(run) line \(index)")
    }
    #expect(EnglishOriginals.english(of: lines[0]) == lines[0])
    // Not lines[1], the oldest kept: any test that prints a line in another language at
    // the same time pushes it out (it failed so, once, beside the catalog tests).
    let middle = EnglishOriginals.limit / 2
    #expect(EnglishOriginals.english(of: lines[middle]) == "\(run) line \(middle)")
    #expect(
      EnglishOriginals.english(of: lines[EnglishOriginals.limit]) == "\(run) line \(EnglishOriginals.limit)")
  }

  @Test func aLineRememberedAgainIsKeptOnce() {
    let run = "englishOriginals-\(UInt64.random(in: 0...UInt64.max))"
    EnglishOriginals.remember("\(run) Hallo", english: "\(run) Hello")
    for index in 0..<(EnglishOriginals.limit - 1) {
      EnglishOriginals.remember("\(run) Hallo", english: "\(run) Hello")
      EnglishOriginals.remember("\(run) Zeile \(index)", english: "\(run) line \(index)")
    }
    // The first line was remembered once, so the limit's worth of lines after it has not pushed it out.
    #expect(EnglishOriginals.english(of: "\(run) Hallo") == "\(run) Hello")
  }

  /// Long lines are bounded by their bytes, not only by their count (issue #46). In
  /// the same serialized suite as the tests of the count, since its 20 MiB push out
  /// every line they keep.
  @Test func longLinesPushOutTheOldestLongBeforeTheCountIsReached() {
    let run = "englishOriginals-\(UInt64.random(in: 0...UInt64.max))"
    let long = String(repeating: "k", count: 256 * 1024)
    let lines = (0..<40).map { "\(run) Zeile \($0) \(long)" }
    for (index, line) in lines.enumerated() {
      EnglishOriginals.remember(line, english: "\(run) line \(index) \(long)")
    }
    // 40 pairs of 512 KiB are 20 MiB: far fewer than the limit's 4096 lines, but the
    // oldest must be gone, and the newest kept.
    #expect(EnglishOriginals.english(of: lines[0]) == lines[0])
    #expect(EnglishOriginals.english(of: lines[39]) == "\(run) line 39 \(long)")
  }
}
