import AnnouncerCore
import FoundationEssentials
import Glibc
import Synchronization

/// The log of what every run did, the history: one JSON object per line, in the format
/// of `--json`, with `at` (local time, ISO 8601) and `pid` added.
///
/// Only outcomes are kept: the records of ``HistoryRecorder``, and an `error` line with a
/// sentence when a background run failed as a whole, such as when speech-dispatcher
/// could not be reached. The file is rotated when a line would take
/// it past ``bound`` bytes: it becomes `log.jsonl.1`, replacing the one before.
/// Writers in several processes take turns through a lock file beside the log.
struct OutcomeLog: Sendable {
  /// Three mebibytes: with ``maxTextBytes`` and ``carriedBytes`` the older file alone
  /// holds over 1,000 outcomes of the longest text, and the common ones are ten times smaller.
  static let defaultBound = 3 << 20
  /// The most bytes of UTF-8 of an announcement's text that a record keeps: a 1.5 MB
  /// line would otherwise push the history out, and a replay would speak all of it.
  static let maxTextBytes = 1000
  /// The most bytes of missed announcements carried into the new file at a rotation.
  static let carriedBytes = 256 << 10
  /// The log file.
  let path: String
  /// The size at which the file is rotated.
  let bound: Int
  /// How long a writer waits for the lock: ``lockWait`` but in tests.
  let lockTimeout: Duration

  init(path: String, bound: Int = OutcomeLog.defaultBound, lockTimeout: Duration = OutcomeLog.lockWait) {
    self.path = path
    self.bound = bound
    self.lockTimeout = lockTimeout
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
    return localized(
      "HOME={home} is not an absolute path, so the outcome log has no place; set HOME to the absolute path of your home directory, or XDG_STATE_HOME to an absolute path.",
      ["home": home])
  }

  /// The path of the rotated, older log.
  var olderPath: String { path + ".1" }

  /// Appends an `error` line with `sentence`, for a run that failed as a whole.
  func record(error sentence: String, status: Int32, at date: Date = Date(), pid: Int32 = getpid()) {
    let text = Self.cut(sentence, toBytes: Self.longestError)
    append(
      Self.stamped(
        "{\"event\":\"error\",\"text\":\(Self.quoted(text)),\"status\":\(status)}", at: date,
        pid: pid))
  }

  /// The most bytes of an error's sentence a record keeps. A sentence may quote a value
  /// the user gave: an `ANNOUNCE_LANGUAGE` of 100,000 characters wrote a record of
  /// 100 KB on every hook run. The longest sentence announce writes is under 400 bytes.
  static let longestError = 1024

  /// `text` cut to at most `limit` bytes at a character's end, with "…" when cut.
  static func cut(_ text: String, toBytes limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    var kept = ""
    var bytes = 0
    for character in text {
      bytes += character.utf8.count
      if bytes > limit - 3 { break }
      kept.append(character)
    }
    return kept + "…"
  }

  /// `jsonLine`, an object that ``EventJSON`` wrote, with the fields `at` and `pid` added at its end.
  static func stamped(_ jsonLine: String, at date: Date, pid: Int32) -> String {
    guard jsonLine.hasSuffix("}") else { return jsonLine }
    // Cut by its bytes: `dropLast()` on a String walks every character.
    return String(decoding: jsonLine.utf8.dropLast(), as: UTF8.self)
      + ",\"at\":\(quoted(timestamp(date))),\"pid\":\(pid)}"
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

  /// How long a writer waits for the lock before it leaves its line out. Every holder
  /// holds it for one append, a rotation's two renames, or a replay's claim, which reads
  /// only what was appended since its unlocked read; ten replays and ten writers at once
  /// never wait 1 s, so only a stuck or stopped holder makes a writer wait this long.
  static let lockWait: Duration = .seconds(10)

  /// Why a line was left out of the log.
  enum WriteFailure: Error, Equatable {
    /// The lock stayed taken for ``lockWait``.
    case busy
    /// The system refused, with this `errno`.
    case system(Int32)
    /// The log, its lock or its directory is not the user's own; ``problem()`` says which.
    case notOwn
  }

  /// The one sentence that says why an outcome was left out, with the fix.
  func sentence(for failure: WriteFailure) -> String {
    switch failure {
    case .busy:
      return localized(
        "The outcome log {path} stayed locked for {seconds} seconds, so an outcome was not logged; find the process that holds {lock} with fuser, or set ANNOUNCE_HISTORY=off.",
        ["path": path, "seconds": String(lockTimeout.components.seconds), "lock": lockPath])
    case .system(let code) where code == EFBIG:
      return localized(
        "The outcome log {path} cannot be written ({reason}): the file-size limit (ulimit -f) is too small for it, so an outcome was not logged; raise that limit, or set ANNOUNCE_HISTORY=off.",
        ["path": path, "reason": SystemReason.printed(code)])
    case .system(let code) where code == ENOSPC || code == EDQUOT:
      return localized(
        "The outcome log {path} cannot be written ({reason}), so an outcome was not logged; free some space on its disk, or set ANNOUNCE_HISTORY=off.",
        ["path": path, "reason": SystemReason.printed(code)])
    case .system(let code):
      return problem()
        ?? localized(
          "The outcome log {path} cannot be written ({reason}), so an outcome was not logged; make {directory} writable, or set XDG_STATE_HOME to a directory that is.",
          ["path": path, "reason": SystemReason.printed(code), "directory": directory])
    case .notOwn:
      return problem()
        ?? localized(
          "The outcome log {path} is not a regular file of yours, so outcomes are not logged; remove it.",
          ["path": path])
    }
  }

  /// Why the log cannot be written, as one sentence naming the fix; `nil` when it can.
  ///
  /// The log and its lock file must be regular files owned by this user: a symbolic
  /// link there would make announce append to the link's target, and a FIFO would
  /// block the writer while it holds the lock. Then the steps of ``append(_:)`` before
  /// its write are tried (they leave at most the directory and the lock file behind),
  /// so that a read-only file system or a directory without write permission is named
  /// too; permissions alone do not stop root, so only trying tells.
  func problem() -> String? {
    if let owner = Self.foreignDirectory(for: directory) {
      return localized(
        "The outcome log {path} would be in {owner}, which belongs to another user, so outcomes are not logged; run announce as that user, or set XDG_STATE_HOME to a directory of yours.",
        ["path": path, "owner": owner])
    }
    for file in [path, lockPath] {
      var status = stat()
      guard lstat(file, &status) == 0 else { continue }
      if !Self.isOwnRegularFile(status) {
        return localized(
          "The outcome log {path} is not a regular file of yours, so outcomes are not logged; remove it.",
          ["path": file])
      }
    }
    if let reason = writeFailure() {
      return localized(
        "The outcome log {path} cannot be written ({reason}), so outcomes are not logged; make {directory} writable, or set XDG_STATE_HOME to a directory that is.",
        ["path": path, "reason": reason, "directory": directory])
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
  private static func lastError() -> String { SystemReason.printed(errno) }

  /// Why the log cannot be read, as one sentence naming the fix; `nil` when it can, or
  /// when there is none yet. A log that root's `sudo -E` made root's, or a directory on
  /// its way, is named here rather than taken for an empty history.
  func readProblem(for purpose: ReadPurpose = .history) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    if descriptor >= 0 {
      close(descriptor)
      return nil
    }
    guard errno != ENOENT else { return nil }
    let reason = Self.lastError()
    switch purpose {
    case .history:
      return localized(
        "The outcome log {path} cannot be read ({reason}), so the history cannot be shown; make it and the directories above it yours again, for example with sudo chown -R \"$USER\" ~/.local/state.",
        ["path": path, "reason": reason])
    case .replay:
      return localized(
        "The outcome log {path} cannot be read ({reason}), so nothing can be replayed; make it and the directories above it yours again, for example with sudo chown -R \"$USER\" ~/.local/state.",
        ["path": path, "reason": reason])
    }
  }

  /// What the log is read for, which ``readProblem(for:)`` says cannot be done.
  enum ReadPurpose: Sendable {
    /// `announce history`.
    case history
    /// `announce replay`.
    case replay
  }

  /// The directory the log is in.
  var directory: String { path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." }

  /// The lock file beside the log, which writers take turns through.
  var lockPath: String { path + ".lock" }

  /// The first directory on the way to `directory` (itself included) that announce
  /// would make a directory in, or write in, and that belongs to another user (root's
  /// excepted: `/`, `/home` and `/tmp` are its); `nil` when there is none.
  ///
  /// root running with a user's `HOME` (`sudo -E`) would otherwise make `~/.local`
  /// root's, with mode 0700, and the user could no longer make `~/.local/share`.
  static func foreignDirectory(for directory: String) -> String? {
    var partial = directory.hasPrefix("/") ? "" : "."
    var parent = partial.isEmpty ? "/" : "."
    for component in directory.split(separator: "/") {
      partial += "/" + component
      var status = stat()
      guard stat(partial, &status) == 0 else {
        // It would be made in `parent`.
        return isForeign(parent) ? parent : nil
      }
      parent = partial
    }
    return isForeign(directory) ? directory : nil
  }

  /// Whether `directory` belongs to a user who is neither this one nor root.
  private static func isForeign(_ directory: String) -> Bool {
    var status = stat()
    guard stat(directory, &status) == 0 else { return false }
    return status.st_uid != geteuid() && status.st_uid != 0
  }

  /// Makes `directory` and its missing parents, each private to this user; false, with
  /// `errno` set, when one cannot be made, or (`EACCES`) when it would be made or
  /// written in a directory of another user's.
  static func makeDirectories(_ directory: String) -> Bool {
    guard foreignDirectory(for: directory) == nil else {
      errno = EACCES
      return false
    }
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
  static func openOwnRegularFile(_ file: String, flags: Int32) -> Int32? {
    let descriptor = retryingInterrupted { open(file, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600) }
    guard descriptor >= 0 else { return nil }
    var status = stat()
    guard fstat(descriptor, &status) == 0, isOwnRegularFile(status) else {
      close(descriptor)
      // No system error: the file is not one to use.
      errno = 0
      return nil
    }
    return descriptor
  }

  /// Takes the exclusive lock on `descriptor`, waiting at most `wait`.
  ///
  /// `flock` has no timeout of its own, and an alarm would interrupt every thread's
  /// calls, so the lock is tried again every few milliseconds instead.
  static func lock(_ descriptor: Int32, wait: Duration = lockWait) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + wait
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
  /// that falls short (a full disk, a file-size limit), the file is cut back to its size
  /// before. A record always starts on a line of its own: when a crash left the last line
  /// cut, a line break goes before the record, so that only the cut line is lost to a reader.
  /// A log that cannot be written, is not a regular file of this user's, or whose lock
  /// stays taken for ``lockWait`` is given up on: the caller says ``problem()`` once, if
  /// anyone is there to hear it.
  @discardableResult
  func append(_ line: String) -> Bool {
    failure(appending: line) == nil
  }

  /// ``append(_:)``, saying why the line was left out; `nil` when it went in.
  func failure(appending line: String) -> WriteFailure? { failure(appendingAll: [line]) }

  /// Appends `lines` in order, as few writes as the bound allows, and says why the first
  /// that was left out was; the lines after it are left out too.
  ///
  /// The lock is held for an append or a rotation's renames only: a rotation reads the
  /// files and writes the new one before it takes the lock (see ``rotate(taking:)``).
  func failure(appendingAll lines: [String]) -> WriteFailure? {
    var pending = lines[...]
    var races = 0
    while !pending.isEmpty {
      let appended = whileLocked { appendFitting(&pending, pastBound: races >= Self.rotationTries) }
      switch appended {
      case .failure(let failure), .success(.some(let failure)): return failure
      case .success(.none): break
      }
      guard !pending.isEmpty else { return nil }
      switch rotate(taking: &pending) {
      case .rotated: continue
      case .raced: races += 1
      case .failed(let failure): return failure
      }
    }
    return nil
  }

  /// Runs `body` while holding the log's lock, so that no other writer appends or
  /// rotates meanwhile, after it finishes a rotation that was killed half way; why not
  /// when the lock could not be had.
  func whileLocked<Value>(_ body: () -> Value) -> Result<Value, WriteFailure> {
    guard Self.makeDirectories(directory) else { return .failure(.system(errno)) }
    guard let lock = Self.openOwnRegularFile(lockPath, flags: O_WRONLY | O_CREAT) else {
      return .failure(errno == 0 ? .notOwn : .system(errno))
    }
    defer { close(lock) }
    guard Self.lock(lock, wait: lockTimeout) else {
      // Only a lock that stayed taken is busy; `flock` may also refuse (`ENOLCK`).
      return .failure(errno == EWOULDBLOCK || errno == EINTR ? .busy : .system(errno))
    }
    finishInterruptedRotation()
    return .success(body())
  }

  /// Runs `body` on a thread of its own and returns its value: the log's lock is waited
  /// for by polling, which must not hold one of the few threads of Swift's cooperative pool.
  static func blocking<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
      let started = SystemThread.start { continuation.resume(returning: body()) }
      if !started { continuation.resume(returning: body()) }
    }
  }

  /// How often a rotation starts again because another writer rotated first, before the
  /// lines go into the current file past its bound instead.
  static let rotationTries = 3

  /// ``append(_:)`` for a caller of ``whileLocked(_:)``.
  func appendHoldingLock(_ line: String) -> WriteFailure? {
    var pending = [line][...]
    return appendFitting(&pending, pastBound: true)
  }

  /// Appends the first of `pending` that fit in the current file under ``bound`` (all of
  /// them when `pastBound`), in one write, and removes them from `pending`; what is left
  /// needs a rotation. The caller holds the lock.
  private func appendFitting(_ pending: inout ArraySlice<String>, pastBound: Bool) -> WriteFailure? {
    // Read as well as write, to see whether the last line is whole.
    guard let file = Self.openOwnRegularFile(path, flags: O_RDWR | O_CREAT | O_APPEND) else {
      return errno == 0 ? .notOwn : .system(errno)
    }
    defer { close(file) }
    var status = stat()
    guard fstat(file, &status) == 0 else { return .system(errno) }
    var bytes: [UInt8] = Self.endsWithLineBreak(file, size: status.st_size) ? [] : [UInt8(ascii: "\n")]
    var taken = 0
    for line in pending {
      let size = line.utf8.count + 1
      let fits = Int(status.st_size) + bytes.count + size <= bound
      // An empty file takes one line of any length.
      guard pastBound || fits || (status.st_size == 0 && taken == 0) else { break }
      bytes += line.utf8
      bytes.append(UInt8(ascii: "\n"))
      taken += 1
    }
    guard taken > 0 else { return nil }
    if let failure = Self.writeAll(bytes, to: file) {
      // Cut back what part of the lines went in, so that the next record is not glued to it.
      _ = ftruncate(file, status.st_size)
      return .system(failure)
    }
    pending.removeFirst(taken)
    return nil
  }

  /// Writes all of `bytes` to `file`; the `errno` of the write that failed, or `nil`.
  /// A write that falls short is continued, so that the error named is the one that
  /// stopped it (`EFBIG` under a file-size limit, `ENOSPC` on a full disk).
  static func writeAll(_ bytes: [UInt8], to file: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { write(file, $0 + offset, buffer.count - offset) } ?? 0
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return written < 0 ? errno : ENOSPC }
      offset += written
    }
    return nil
  }

  /// How a rotation went.
  enum Rotation: Equatable {
    /// The new file is in place, with the lines it took.
    case rotated
    /// Another writer rotated since the files were read, or a replay was heard of an
    /// announcement the new file would carry: nothing changed.
    case raced
    /// The new file could not be written or put in place: both files are as they were.
    case failed(WriteFailure)
  }

  /// A point a reader reaches while it holds no lock: between reading the older file and
  /// the current one, and after it has parsed what it read, before it takes the lock.
  package enum UnlockedStep: Sendable {
    case betweenFiles
    case parsed
  }

  /// Called at each ``UnlockedStep`` of a read of the log at a path: tests rotate the log
  /// or take its lock there, as another process may, to show that a reader is not fooled
  /// and holds no lock. By path, because tests that run in parallel set their own: one
  /// hook for the whole process was taken away by another test's end, now and then.
  package static let unlockedStep = Mutex<[String: @Sendable (UnlockedStep) -> Void]>([:])

  /// Calls the ``unlockedStep`` of this log's path, if a test set one.
  func reached(_ step: UnlockedStep) {
    Self.unlockedStep.withLock { $0[path] }?(step)
  }

  /// The whole lines of the older log and then of the current one, oldest first. A line
  /// cut by a crash is left out, as is a file that is not a regular file of this
  /// user's (a symbolic link or a FIFO there is neither followed nor read).
  func lines() -> [String] { snapshot().lines }

  /// A file by its device and inode, which a rotation's rename changes for the path.
  struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(_ status: stat) {
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
    }

    /// The file at `path`, not following a symbolic link; `nil` when there is none.
    static func of(_ path: String) -> FileIdentity? {
      var status = stat()
      return lstat(path, &status) == 0 ? FileIdentity(status) : nil
    }
  }

  /// Where a read of the current file ended: the file, and the bytes of whole lines read.
  struct ReadPosition: Equatable, Sendable {
    var identity: FileIdentity
    var offset: Int
  }

  /// Both files as one read saw them, and which files those were.
  struct Snapshot: Sendable {
    var olderLines: [String] = []
    var currentLines: [String] = []
    /// The older file read; `nil` when there was none.
    var older: FileIdentity?
    /// The current file read and where its read ended; `nil` when there was none.
    var current: ReadPosition?
    /// The `errno` of a read that the system stopped in either file, whose lines past it
    /// are missing; `nil` when both were read to their end.
    var failure: Int32?
    /// The lines of both, oldest first.
    var lines: [String] { olderLines + currentLines }
  }

  /// Reads both files without the lock, and again when a rotation came between the two
  /// reads (the paths then name other files than those read), so that no record is read
  /// twice or missed.
  func snapshot() -> Snapshot {
    // A rotation killed half way is finished first: until then, some records are under
    // another name (see `rotate(taking:)`).
    if rotationIsUnfinished { _ = whileLocked {} }
    var result = Snapshot()
    for _ in 0..<8 {
      result = Snapshot()
      if let descriptor = Self.openOwnRegularFile(olderPath, flags: O_RDONLY) {
        var status = stat()
        if fstat(descriptor, &status) == 0 { result.older = FileIdentity(status) }
        let older = Self.wholeLines(reading: descriptor, from: 0)
        result.olderLines = older.lines
        result.failure = older.failure
        close(descriptor)
      }
      reached(.betweenFiles)
      if let descriptor = Self.openOwnRegularFile(path, flags: O_RDONLY) {
        var status = stat()
        let identity = fstat(descriptor, &status) == 0 ? FileIdentity(status) : nil
        let (lines, offset, failure) = Self.wholeLines(reading: descriptor, from: 0)
        result.currentLines = lines
        result.failure = result.failure ?? failure
        result.current = identity.map { ReadPosition(identity: $0, offset: offset) }
        close(descriptor)
      }
      if FileIdentity.of(olderPath) == result.older, FileIdentity.of(path) == result.current?.identity {
        break
      }
    }
    // A read that the system stops, as a failing disk does (EIO), made in a test.
    if let injected = Self.injectedFaults.withLock({ $0[directory] })?("read") {
      result.failure = result.failure ?? injected
    }
    return result
  }

  /// The whole lines appended to the current file since `snapshot` read it; `nil` when
  /// either path names another file now (a rotation came between), and everything must
  /// be read again.
  func lines(after snapshot: Snapshot) -> [String]? {
    guard FileIdentity.of(olderPath) == snapshot.older else { return nil }
    guard let position = snapshot.current else { return FileIdentity.of(path) == nil ? [] : nil }
    guard let descriptor = Self.openOwnRegularFile(path, flags: O_RDONLY) else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, FileIdentity(status) == position.identity,
      Int(status.st_size) >= position.offset
    else { return nil }
    return Self.wholeLines(reading: descriptor, from: position.offset).lines
  }

  /// The lines that end in a line break in `descriptor` from byte `start`, the offset
  /// just past the last of them, and the `errno` of a read that failed before the end.
  static func wholeLines(
    reading descriptor: Int32, from start: Int
  ) -> (lines: [String], end: Int, failure: Int32?) {
    guard lseek(descriptor, off_t(start), SEEK_SET) >= 0 else { return ([], start, errno) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var failure: Int32?
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count < 0 { failure = errno }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    let end = (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
    // What follows the last line break is empty, or a line a crash cut, or one being written.
    let lines = bytes[..<end].split(separator: UInt8(ascii: "\n"))
    return (lines.map { String(decoding: $0, as: UTF8.self) }, start + end, failure)
  }

  /// `announcement` as a record keeps it: a text of over ``maxTextBytes`` is cut at a
  /// space (or a character) and ends with "…", and SSML that long is kept as its words,
  /// since a cut document would not be SSML.
  static func bounded(_ announcement: Announcement) -> Announcement {
    guard announcement.text.utf8.count > maxTextBytes else { return announcement }
    var kept = announcement
    var text = announcement.isSSML ? HistoryWords.shown(announcement.text, ssml: true) : announcement.text
    kept.isSSML = false
    if text.utf8.count > maxTextBytes {
      var cut = ""
      for character in text {
        guard cut.utf8.count + character.utf8.count <= maxTextBytes - 4 else { break }
        cut.append(character)
      }
      if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > cut.count / 2 {
        cut = String(cut[..<space])
      }
      text = cut + "…"
    }
    kept.text = text
    return kept
  }
}
