/// How long a braille flash is held and how fast it is panned.
package struct BrailleTiming: Sendable, Equatable {
  /// The reading pace when none is given: 100 words a minute.
  ///
  /// Braille readers read much more slowly than speech goes: about 90 to 115 words a
  /// minute for an experienced adult reader, fewer for most. 100 keeps most readers
  /// with the text and holds a full 40-cell window for 4 s.
  package static let defaultWordsPerMinute = 100
  /// The pace a word is counted at: six cells, five letters and a space, the
  /// "standard word" of reading-speed studies.
  package static let cellsPerWord = 6
  /// The shortest flash when none is given: 5 s, the time of Orca's flash messages
  /// (`brailleFlashTime`), one more than brltty's own 4 s. announce's messages arrive
  /// unasked, so the reader needs a moment to notice them; any key ends one early.
  package static let defaultMinimumFlash: Duration = .seconds(5)
  /// The longest a flash is panned by time when none is given: 60 s. A 4 MiB line held
  /// the display for hours; the whole text stays readable in the history.
  package static let defaultLongestFlash: Duration = .seconds(60)
  /// The range of paces accepted, in words a minute.
  package static let wordsPerMinuteRange: ClosedRange<Int> = 10...1000

  /// The reading pace in words a minute (see ``cellsPerWord``).
  package var wordsPerMinute: Int
  /// The shortest time a flash is held, however short its text.
  package var minimumFlash: Duration
  /// The shortest time one window is held while panning by time, however few cells it has:
  /// long enough to notice that the display changed and find its start.
  package var shortestWindow: Duration
  /// How long brltty may take to answer a request before the display counts as not
  /// answering (a stopped or frozen brltty). Answers come within a few milliseconds.
  package var answerBound: Duration
  /// The most text a flash shows: as much as is read in this time at the pace. Longer
  /// text is cut there and ends with " …"; the reader's own panning cannot go beyond it.
  package var longestFlash: Duration = Self.defaultLongestFlash

  /// Creates the timing; the defaults are the command line's.
  package init(
    wordsPerMinute: Int = Self.defaultWordsPerMinute,
    minimumFlash: Duration = Self.defaultMinimumFlash,
    shortestWindow: Duration = .seconds(1), answerBound: Duration = .seconds(2)
  ) {
    self.wordsPerMinute = wordsPerMinute
    self.minimumFlash = minimumFlash
    self.shortestWindow = shortestWindow
    self.answerBound = answerBound
  }

  /// `text`, cut to what is read in ``longestFlash`` at the pace, with " …" where it was cut.
  package func cut(_ text: String) -> String {
    let perMinute = Int64(max(1, wordsPerMinute) * Self.cellsPerWord)
    let (seconds, attoseconds) = longestFlash.components
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    let cells = max(1, Int(nanoseconds / 1000 * perMinute / 60_000_000))
    let scalars = text.unicodeScalars
    guard scalars.count > cells else { return text }
    var cut = String.UnicodeScalarView(scalars.prefix(cells))
    cut.append(contentsOf: " …".unicodeScalars)
    return String(cut)
  }

  /// How long a window of `cells` cells is held while panning by time.
  package func readingTime(cells: Int) -> Duration {
    // In whole nanoseconds, so that times add up exactly.
    let perMinute = Int64(max(1, wordsPerMinute) * Self.cellsPerWord)
    let reading = Duration.nanoseconds(Int64(cells) * 60_000_000_000 / perMinute)
    return max(reading, shortestWindow)
  }
}
