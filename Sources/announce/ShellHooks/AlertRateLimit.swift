import FoundationEssentials
import Glibc

/// At most one announcement per key in a given number of seconds, across processes.
///
/// Each tmux alert runs its own announce process, so the times are kept in a small file:
/// one line per key, `KEY SINCE EXPIRY`, in seconds since 1970: when the key was let
/// through, and when it may be again. A key is held back while the time is between the
/// two; expired lines are dropped on every update, so the file stays a few lines long.
/// Readers and writers take turns with `flock` on the file itself.
/// A line from the future, written before the clock stepped back, counts as expired: an
/// alert said too soon beats one held back for as long as the clock went back.
struct AlertRateLimit {
  /// The state file.
  let path: String

  /// The longest interval taken, one day: anything longer is a mistake, not a wish.
  static let longestInterval = 86_400.0

  /// The file for this user: `tmux-alerts` beside the ``OutcomeLog``; `nil` when the log
  /// has no place (``OutcomeLog/placeProblem(environment:)``: a relative `HOME`), which
  /// would put the file wherever tmux runs the hook. Then every alert is let through.
  static func forUser(environment: [String: String]) -> AlertRateLimit? {
    guard OutcomeLog.placeProblem(environment: environment) == nil else { return nil }
    let log = OutcomeLog.defaultPath(environment: environment)
    let directory = log.lastIndex(of: "/").map { String(log[..<$0]) } ?? "."
    return AlertRateLimit(path: directory + "/tmux-alerts")
  }

  /// Whether `key` may be announced at `now`, which then holds it back for `interval`
  /// seconds.
  func admits(_ key: String, now: Double, interval: Double) -> Bool {
    admits(key, interval: interval) { now }
  }

  /// Whether `key` may be announced now, as `clock` tells it in seconds since 1970, which
  /// then holds it back for `interval` seconds.
  ///
  /// The clock is read once the lock is held. tmux runs the hooks of a window linked into
  /// two sessions at once, and a process that read the time before it waited for the lock
  /// found the other's line 5 ms in its future, took it for one written before the clock
  /// stepped back, and spoke the bell a second time (a real-stack test, 1 run in about 10
  /// on a loaded machine).
  ///
  /// When the file cannot be used (not a regular file of ours, no space, its lock held
  /// for a second), the answer is yes: an announcement too many beats a lost one.
  func admits(_ key: String, interval: Double, clock: () -> Double) -> Bool {
    let interval = min(max(interval, 0), Self.longestInterval)
    let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    // Never made in a directory of another user's, as the log's is not.
    guard OutcomeLog.makeDirectories(directory) else { return true }
    let file = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    guard file >= 0 else { return true }
    defer { close(file) }
    var status = stat()
    guard fstat(file, &status) == 0, OutcomeLog.isOwnRegularFile(status), OutcomeLog.lock(file)
    else { return true }
    let now = clock()
    var entries = Self.entries(in: Self.contents(of: file)).filter {
      $0.since <= now && now < $0.expiry
    }
    let admitted = !entries.contains { $0.key == key }
    if admitted && interval > 0 { entries.append((key, now, now + interval)) }
    let text = entries.map { "\($0.key) \($0.since) \($0.expiry)\n" }.joined()
    let bytes = Array(text.utf8)
    if ftruncate(file, 0) == 0 {
      _ = bytes.withUnsafeBytes { pwrite(file, $0.baseAddress, $0.count, 0) }
    }
    return admitted
  }

  /// The whole file, from its start.
  private static func contents(of file: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, off_t(bytes.count)) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The lines of `text` that read `KEY SINCE EXPIRY`; any other line is dropped.
  private static func entries(in text: String) -> [(key: String, since: Double, expiry: Double)] {
    text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count == 3, let since = Double(fields[1]), let expiry = Double(fields[2]),
        since.isFinite, expiry.isFinite
      else { return nil }
      return (String(fields[0]), since, expiry)
    }
  }
}
