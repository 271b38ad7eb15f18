import Glibc

/// The reason the system gives for an `errno` value, as `strerror` words it.
///
/// The process's locale stays C (nothing calls `setlocale`), so `strerror` answers in
/// English, which the outcome log, `doctor --json` and `doctor --report` keep. A line
/// printed for a person says the values announce meets in its own catalogs' words, so
/// that a German line does not end in English; any other value stays as C says it.
enum SystemReason {
  /// The reasons announce words itself: those of making, opening, writing and locking
  /// its files and folders, and of reaching a socket or a process.
  private static let worded: [Int32: String] = [
    ENOENT: Wording.marked("No such file or directory"),
    ENOTDIR: Wording.marked("Not a directory"),
    EISDIR: Wording.marked("Is a directory"),
    EACCES: Wording.marked("Permission denied"),
    EPERM: Wording.marked("Operation not permitted"),
    EROFS: Wording.marked("Read-only file system"),
    ENOSPC: Wording.marked("No space left on device"),
    EDQUOT: Wording.marked("Disk quota exceeded"),
    EEXIST: Wording.marked("File exists"),
    ELOOP: Wording.marked("Too many levels of symbolic links"),
    ENAMETOOLONG: Wording.marked("File name too long"),
    EFBIG: Wording.marked("File too large"),
    EIO: Wording.marked("Input/output error"),
    EMFILE: Wording.marked("Too many open files"),
    ECONNREFUSED: Wording.marked("Connection refused"),
    ESRCH: Wording.marked("No such process"),
  ]

  /// The reason for `code` in English, as the C locale's `strerror` says it.
  static func english(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// The reason for `code` in `wording`'s language where announce words it, else in
  /// English; the English is remembered for the log (``EnglishOriginals``).
  static func printed(_ code: Int32, in wording: Wording = .printed) -> String {
    let english = english(code)
    guard worded[code] == english else { return english }
    return EnglishOriginals.remembering(wording.localized(english), english: english)
  }
}
