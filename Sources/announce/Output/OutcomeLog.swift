import AnnouncerCore
import FoundationEssentials
import Glibc

/// The log of what every run did, the history: one JSON object per line, in the format
/// of `--json`, with `at` (local time, ISO 8601) and `pid` added.
///
/// Only outcomes are kept: the records of ``HistoryRecorder``, and an `error` line with a
/// sentence when a background run failed as a whole, such as when speech-dispatcher
/// could not be reached. The file is rotated when a line would take
/// it past ``bound`` bytes: it becomes `log.jsonl.1`, replacing the one before.
/// Writers in several processes take turns through a lock file beside the log.
struct OutcomeLog: Sendable {
  /// One mebibyte.
  static let defaultBound = 1 << 20
  /// The log file.
  let path: String
  /// The size at which the file is rotated.
  let bound: Int

  init(path: String, bound: Int = OutcomeLog.defaultBound) {
    self.path = path
    self.bound = bound
  }

  /// The log for this user: `$XDG_STATE_HOME/announce/log.jsonl`, or
  /// `~/.local/state/announce/log.jsonl` when that variable is unset or not absolute.
  static func forUser(
    environment: [String: String] = ProcessInfo.processInfo.environment
  )
    -> OutcomeLog
  {
    OutcomeLog(path: defaultPath(environment: environment))
  }

  /// Where ``forUser(environment:)`` writes.
  static func defaultPath(environment: [String: String]) -> String {
    let state: String
    if let home = environment["XDG_STATE_HOME"], home.hasPrefix("/") {
      state = home
    } else {
      let home = HomeDirectory.path(environment: environment)
      state = home + "/.local/state"
    }
    return state + "/announce/log.jsonl"
  }

  /// Why the log of `environment` has no place, as one sentence naming the fix; `nil`
  /// when it has one. A relative `HOME` would put it wherever announce happens to run.
  static func placeProblem(environment: [String: String]) -> String? {
    guard !defaultPath(environment: environment).hasPrefix("/") else { return nil }
    let home = environment["HOME"] ?? ""
    return "HOME=\(home) is not an absolute path, so the outcome log has no place; "
      + "set HOME to the absolute path of your home directory, or XDG_STATE_HOME to an absolute path."
  }

  /// The path of the rotated, older log.
  var olderPath: String { path + ".1" }

  /// Appends an `error` line with `sentence`, for a run that failed as a whole.
  func record(error sentence: String, status: Int32, at date: Date = Date(), pid: Int32 = getpid()) {
    append(
      Self.stamped(
        "{\"event\":\"error\",\"text\":\(Self.quoted(sentence)),\"status\":\(status)}", at: date,
        pid: pid))
  }

  /// `jsonLine`, an object that ``EventJSON`` wrote, with the fields `at` and `pid` added at its end.
  static func stamped(_ jsonLine: String, at date: Date, pid: Int32) -> String {
    guard jsonLine.hasSuffix("}") else { return jsonLine }
    return jsonLine.dropLast() + ",\"at\":\(quoted(timestamp(date))),\"pid\":\(pid)}"
  }

  /// `date` in local time with milliseconds and the offset, such as `2026-11-22T10:15:03.120+01:00`
  /// (`Z` when local time is UTC). Local time comes from the C library, which reads `TZ`
  /// and `/etc/localtime`: FoundationEssentials knows no named time zones without ICU.
  static func timestamp(_ date: Date) -> String {
    let since1970 = date.timeIntervalSince1970
    let whole = since1970.rounded(.down)
    var seconds = time_t(whole)
    let millis = min(999, max(0, Int(((since1970 - whole) * 1000).rounded())))
    var local = tm()
    guard localtime_r(&seconds, &local) != nil else { return "" }
    return timestamp(local, milliseconds: millis)
  }

  /// `local`, a broken-down time with its UTC offset, in the form of ``timestamp(_:)``.
  static func timestamp(_ local: tm, milliseconds: Int) -> String {
    func padded(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    var text =
      padded(Int(local.tm_year) + 1900, 4) + "-" + padded(Int(local.tm_mon) + 1, 2) + "-"
      + padded(Int(local.tm_mday), 2) + "T" + padded(Int(local.tm_hour), 2) + ":"
      + padded(Int(local.tm_min), 2) + ":" + padded(Int(local.tm_sec), 2) + "."
      + padded(milliseconds, 3)
    let offset = local.tm_gmtoff
    if offset == 0 {
      text += "Z"
    } else {
      let minutes = Int(offset.magnitude) / 60
      text += (offset < 0 ? "-" : "+") + padded(minutes / 60, 2) + ":" + padded(minutes % 60, 2)
    }
    return text
  }

  /// A JSON string literal.
  static func quoted(_ text: String) -> String { EventJSON.quoted(text) }

  /// How long a writer waits for the lock before it leaves its line out: a writer holds
  /// it for one write, so only a stuck one holds it longer.
  static let lockWait: Duration = .seconds(1)

  /// Why the log cannot be written, as one sentence naming the fix; `nil` when it can.
  ///
  /// The log and its lock file must be regular files owned by this user: a symbolic
  /// link there would make announce append to the link's target, and a FIFO would
  /// block the writer while it holds the lock. Then the steps of ``append(_:)`` before
  /// its write are tried (they leave at most the directory and the lock file behind),
  /// so that a read-only file system or a directory without write permission is named
  /// too; permissions alone do not stop root, so only trying tells.
  func problem() -> String? {
    for file in [path, lockPath] {
      var status = stat()
      guard lstat(file, &status) == 0 else { continue }
      if !Self.isOwnRegularFile(status) {
        return "The outcome log \(file) is not a regular file of yours, so outcomes are not logged; "
          + "remove it."
      }
    }
    if let reason = writeFailure() {
      return "The outcome log \(path) cannot be written (\(reason)), so outcomes are not logged; "
        + "make \(directory) writable, or set XDG_STATE_HOME to a directory that is."
    }
    return nil
  }

  /// The system's reason why the log's directory, its lock file, or the log itself (when
  /// there is one) cannot be opened for writing; `nil` when all three can.
  private func writeFailure() -> String? {
    guard Self.makeDirectories(directory) else { return Self.lastError() }
    guard let lock = Self.openOwnRegularFile(lockPath, flags: O_WRONLY | O_CREAT) else {
      return Self.lastError()
    }
    close(lock)
    let log = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard log >= 0 else { return errno == ENOENT ? nil : Self.lastError() }
    close(log)
    return nil
  }

  /// The text of the current `errno`, such as "Read-only file system".
  private static func lastError() -> String { String(cString: strerror(errno)) }

  /// The directory the log is in.
  var directory: String { path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." }

  /// The lock file beside the log, which writers take turns through.
  var lockPath: String { path + ".lock" }

  /// Makes `directory` and its missing parents, each private to this user; false, with
  /// `errno` set, when one cannot be made.
  private static func makeDirectories(_ directory: String) -> Bool {
    var partial = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      partial += "/" + component
      guard mkdir(partial, 0o700) != 0, errno != EEXIST else { continue }
      let failure = errno
      var status = stat()
      if stat(partial, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { continue }
      errno = failure
      return false
    }
    return true
  }

  /// Whether `status` describes a regular file owned by this process's user.
  static func isOwnRegularFile(_ status: stat) -> Bool {
    (status.st_mode & S_IFMT) == S_IFREG && status.st_uid == geteuid()
  }

  /// Opens `file` for writing without following a symbolic link or blocking on a FIFO,
  /// and keeps it only if it is a regular file of this user's.
  /// `flags` give the access mode and whether the file is created.
  private static func openOwnRegularFile(_ file: String, flags: Int32) -> Int32? {
    let descriptor = open(file, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    guard descriptor >= 0 else { return nil }
    var status = stat()
    guard fstat(descriptor, &status) == 0, isOwnRegularFile(status) else {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  /// Takes the exclusive lock on `descriptor`, waiting at most ``lockWait``.
  ///
  /// `flock` has no timeout of its own, and an alarm would interrupt every thread's
  /// calls, so the lock is tried again every few milliseconds instead.
  static func lock(_ descriptor: Int32) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + lockWait
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else { return false }
      usleep(5_000)
    }
    return true
  }

  /// Whether the last byte of the `size` bytes of `file` is a line break; true for an empty file.
  private static func endsWithLineBreak(_ file: Int32, size: off_t) -> Bool {
    guard size > 0 else { return true }
    var last: UInt8 = 0
    return pread(file, &last, 1, size - 1) == 1 && last == UInt8(ascii: "\n")
  }

  /// Appends one line, rotating first when it would take the file past ``bound``; false
  /// when it was left out.
  ///
  /// The line is written whole or not at all: one `write` of the whole record, and when
  /// that falls short (a full disk), the file is cut back to its size before. A record
  /// always starts on a line of its own: when a crash left the last line cut, a line
  /// break goes before the record, so that only the cut line is lost to a reader.
  /// A log that cannot be written, is not a regular file of this user's, or whose lock
  /// stays taken for ``lockWait`` is given up on: the caller says ``problem()`` once, if
  /// anyone is there to hear it.
  @discardableResult
  func append(_ line: String) -> Bool {
    whileLocked { appendHoldingLock(line) } ?? false
  }

  /// Runs `body` while holding the log's lock, so that no other writer appends or
  /// rotates meanwhile; `nil` when the lock could not be had.
  func whileLocked<Result>(_ body: () -> Result) -> Result? {
    guard Self.makeDirectories(directory) else { return nil }
    guard let lock = Self.openOwnRegularFile(lockPath, flags: O_WRONLY | O_CREAT) else { return nil }
    defer { close(lock) }
    guard Self.lock(lock) else { return nil }
    return body()
  }

  /// ``append(_:)`` for a caller of ``whileLocked(_:)``.
  func appendHoldingLock(_ line: String) -> Bool {
    var bytes = Array((line + "\n").utf8)
    // Read as well as write, to see whether the last line is whole.
    let readWrite = O_RDWR | O_CREAT | O_APPEND
    guard var file = Self.openOwnRegularFile(path, flags: readWrite) else { return false }
    defer { close(file) }
    var status = stat()
    guard fstat(file, &status) == 0 else { return false }
    if status.st_size > 0, Int(status.st_size) + bytes.count > bound, rename(path, olderPath) == 0 {
      guard let fresh = Self.openOwnRegularFile(path, flags: readWrite) else { return false }
      close(file)
      file = fresh
      guard fstat(file, &status) == 0 else { return false }
    }
    if !Self.endsWithLineBreak(file, size: status.st_size) { bytes.insert(UInt8(ascii: "\n"), at: 0) }
    var written = -1
    repeat {
      written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    } while written < 0 && errno == EINTR
    if written != bytes.count {
      // Cut back what part of the line went in, so that the next record is not glued to it.
      _ = ftruncate(file, status.st_size)
      return false
    }
    return true
  }

  /// The whole lines of the older log and then of the current one, oldest first. A line
  /// cut by a crash is left out, as is a file that is not a regular file of this
  /// user's (a symbolic link or a FIFO there is neither followed nor read).
  func lines() -> [String] {
    [olderPath, path].flatMap { Self.wholeLines(of: $0) }
  }

  /// The lines of `file` that end in a line break.
  private static func wholeLines(of file: String) -> [String] {
    guard let descriptor = openOwnRegularFile(file, flags: O_RDONLY) else { return [] }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // The last piece follows the last line break: empty, or a line a crash cut.
    lines.removeLast()
    return lines.filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
  }
}
