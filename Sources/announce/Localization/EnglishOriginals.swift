import Synchronization

/// The English, as written in the sources, of each line this process made in the
/// locale's language: the outcome log's records stay in English (issue #38), and a
/// failure's sentence is made once, for standard error, before it is also recorded.
///
/// Only the newest ``limit`` lines are kept: a line is looked up soon after it is made, and
/// a long run under another locale, such as `--input json` rejecting line after line of a
/// `tail -f`, would otherwise keep every line it ever printed. doctor, which makes the
/// most lines at once, makes a few hundred.
enum EnglishOriginals {
  /// How many lines are kept.
  package static let limit = 4096
  private static let originals = Mutex((english: [String: String](), order: [String]()))

  /// Remembers that `printed` says `english`.
  static func remember(_ printed: String, english: String) {
    guard printed != english else { return }
    originals.withLock { originals in
      if originals.english.updateValue(english, forKey: printed) == nil {
        originals.order.append(printed)
      }
      if originals.order.count > limit {
        originals.english[originals.order.removeFirst()] = nil
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
