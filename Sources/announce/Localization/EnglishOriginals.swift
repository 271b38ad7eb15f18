import Synchronization

/// The English, as written in the sources, of each line this process made in the
/// locale's language: the outcome log's records stay in English (issue #38), and a
/// failure's sentence is made once, for standard error, before it is also recorded.
///
/// Only the newest lines are kept, at most ``limit`` of them and ``byteLimit`` bytes of
/// text in all: a line is looked up soon after it is made, and a long run under another
/// locale, such as `--input json` rejecting line after line of a `tail -f`, would
/// otherwise keep every line it ever printed. A count alone did not bound it: 1,000
/// rejected lines quoting 1 MB keys each peaked at 2,035 MiB under a German locale,
/// against 100 MiB under C (issue #46). doctor, which makes the most lines at once,
/// makes a few hundred of a few hundred bytes.
enum EnglishOriginals {
  /// How many lines are kept.
  package static let limit = 4096
  /// How many bytes of text, printed and English together, are kept.
  package static let byteLimit = 1 << 20
  private static let originals = Mutex(
    (english: [String: String](), order: [String](), first: 0, bytes: 0))

  /// Remembers that `printed` says `english`; a pair larger than ``byteLimit`` is not
  /// kept, and the log records such a line as it was printed.
  static func remember(_ printed: String, english: String) {
    guard printed != english else { return }
    let size = printed.utf8.count + english.utf8.count
    guard size <= byteLimit else { return }
    originals.withLock { originals in
      if let old = originals.english.updateValue(english, forKey: printed) {
        originals.bytes += english.utf8.count - old.utf8.count
      } else {
        originals.order.append(printed)
        originals.bytes += size
      }
      while originals.order.count - originals.first > limit || originals.bytes > byteLimit {
        let oldest = originals.order[originals.first]
        originals.first += 1
        if let gone = originals.english.removeValue(forKey: oldest) {
          originals.bytes -= oldest.utf8.count + gone.utf8.count
        }
      }
      // The forgotten lines' places are given back now and then, not one at a time.
      if originals.first > limit {
        originals.order.removeFirst(originals.first)
        originals.first = 0
      }
    }
  }

  /// `printed`, once it is remembered as saying `english`.
  static func remembering(_ printed: String, english: String) -> String {
    remember(printed, english: english)
    return printed
  }

  /// The English of `line`, a line made in the locale's language; `line` itself when it
  /// was made in English or not by announce.
  static func english(of line: String) -> String {
    originals.withLock { $0.english[line] } ?? line
  }
}
