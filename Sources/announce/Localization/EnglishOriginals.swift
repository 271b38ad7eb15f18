import Synchronization

/// The English, as written in the sources, of each line this process made in the
/// locale's language: the outcome log's records stay in English (issue #38), and a
/// failure's sentence is made once, for standard error, before it is also recorded.
enum EnglishOriginals {
  private static let originals = Mutex<[String: String]>([:])

  /// Remembers that `printed` says `english`.
  static func remember(_ printed: String, english: String) {
    guard printed != english else { return }
    originals.withLock { $0[printed] = english }
  }

  /// `printed`, once it is remembered as saying `english`.
  static func remembering(_ printed: String, english: String) -> String {
    remember(printed, english: english)
    return printed
  }

  /// The English of `line`, a line made in the locale's language; `line` itself when it
  /// was made in English or not by announce.
  static func english(of line: String) -> String {
    originals.withLock { $0[line] } ?? line
  }
}
