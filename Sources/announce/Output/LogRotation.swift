import FoundationEssentials
import Glibc
import Synchronization

/// The rotation of the outcome log: the current file becomes `log.jsonl.1`, and a new
/// current file starts with the missed announcements of the older file it replaces.
///
/// A rotation reads both files and writes the new one whole, flushed to disk under a name
/// of its own (`log.jsonl.PID-N.new`), without the lock. Under the lock it then takes three
/// steps, and a kill may come after any of them:
/// 1. the current file gets a second name, `log.jsonl.rotating` (a hard link);
/// 2. the new file is renamed over the current one;
/// 3. `log.jsonl.rotating` is renamed over the older file.
/// Killed after step 1, nothing has moved, and the link is removed; killed after step 2,
/// the carried announcements are in the older file and in the new one, and the records of
/// the file that was current are under the rotating name only: the next process that takes
/// the lock (a writer, a replay, or `history`, which takes it when it finds that name)
/// finishes step 3 (``finishInterruptedRotation()``). A step that fails undoes the ones
/// before it, so a rotation that cannot write or rename leaves both files as they were.
/// The older file is replaced last because until then it is the only copy of the carried
/// announcements that a reader sees.
extension OutcomeLog {
  /// The second name of the current file while a rotation replaces it (step 1 above).
  var rotatingPath: String { path + ".rotating" }

  /// Replaces the older file with the current one and starts a new current file with the
  /// carried lines (``carried(older:current:)``) and the first of `pending` that fit.
  ///
  /// Should another writer rotate in between, or a replay be heard of an announcement the
  /// new file carries (read, it was missed; now it is not), nothing is renamed and the caller
  /// tries again.
  func rotate(taking pending: inout ArraySlice<String>) -> Rotation {
    let older = LogLines.read(olderPath)
    if let failure = older.failure { return .failed(.system(failure)) }
    var heard = Self.heardKeys(in: older)
    let read: ReadPosition?
    do throws(LogLines.ReadFailure) {
      read = try LogLines.forEachLine(of: path) { Self.noteHeard($0, in: &heard) }
    } catch {
      return .failed(.system(error.code))
    }
    // The file went away: the next append starts a new one.
    guard let read else { return .raced }
    let carried = Self.carried(older: older, heard: heard)
    var bytes: [UInt8] = []
    for line in carried {
      bytes += line.utf8
      bytes.append(UInt8(ascii: "\n"))
    }
    var taken = 0
    for line in pending {
      guard taken == 0 || bytes.count + line.utf8.count + 1 <= bound else { break }
      bytes += line.utf8
      bytes.append(UInt8(ascii: "\n"))
      taken += 1
    }
    guard let new = makeNewFile() else { return .failed(.system(errno)) }
    // Closed, and so unlocked, only once it is renamed or removed.
    defer { close(new.descriptor) }
    var failure = Self.writeAll(bytes, to: new.descriptor)
    if failure == nil, Self.retryingInterrupted({ fsync(new.descriptor) }) != 0 { failure = errno }
    if let failure {
      unlink(new.path)
      return .failed(.system(failure))
    }
    reached(.parsed)
    let renamed = whileLocked { () -> Rotation in
      guard FileIdentity.of(olderPath) == older.identity, FileIdentity.of(path) == read.identity else {
        return .raced
      }
      guard let heardSince = heardKeys(appendedAfter: read) else { return .failed(.system(errno)) }
      if !heardSince.isEmpty,
        carried.contains(where: { line in
          HistoryRecord.parseKeeping(line)?.record.key.map(heardSince.contains) ?? false
        })
      {
        return .raced
      }
      removeAbandonedNewFiles(keeping: new.path)
      return replaceFiles(with: new.path)
    }
    // The files just read (6 MB) go back to the system: the writer's thread would
    // otherwise keep them in its own allocator arena.
    _ = releaseFreeMemory(0)
    switch renamed {
    case .success(.rotated):
      pending.removeFirst(taken)
      return .rotated
    case .success(let other):
      unlink(new.path)
      return other
    case .failure(let failure):
      unlink(new.path)
      return .failed(failure)
    }
  }

  /// Steps 1 to 3 of a rotation, with the lock held; a step that fails undoes those before it.
  private func replaceFiles(with new: String) -> Rotation {
    guard Self.changeName(.link, of: path, to: rotatingPath) == 0 else { return .failed(.system(errno)) }
    guard Self.changeName(.rename, of: new, to: path) == 0 else {
      let failure = errno
      unlink(rotatingPath)
      return .failed(.system(failure))
    }
    guard Self.changeName(.rename, of: rotatingPath, to: olderPath) == 0 else {
      let failure = errno
      // The current file goes back in place of the new one. Should that fail too, the
      // next holder of the lock finishes the rotation instead, and nothing is lost.
      _ = Self.changeName(.rename, of: rotatingPath, to: path)
      return .failed(.system(failure))
    }
    return .rotated
  }

  /// Finishes a rotation that was killed under the lock (see the steps above); the caller
  /// holds the lock.
  func finishInterruptedRotation() {
    var status = stat()
    guard lstat(rotatingPath, &status) == 0 else { return }
    if Self.isOwnRegularFile(status), FileIdentity(status) != FileIdentity.of(path) {
      _ = Self.changeName(.rename, of: rotatingPath, to: olderPath)
    } else {
      // Killed after step 1: the current file is still in place. (Or no file of ours.)
      unlink(rotatingPath)
    }
  }

  /// Whether a rotation was killed before it finished, so that a reader must take the lock
  /// to finish it before it reads.
  var rotationIsUnfinished: Bool { FileIdentity.of(rotatingPath) != nil }

  /// A rotation's new file, created and locked.
  struct NewFile {
    var path: String
    var descriptor: Int32
  }

  /// Makes a rotation's new file, `log.jsonl.PID-N.new`, and holds a lock on it until it
  /// is closed, so that another rotation can tell that it is not abandoned; `nil`, with
  /// `errno`, when it cannot be made.
  private func makeNewFile() -> NewFile? {
    while true {
      let name = path + ".\(getpid())-\(Self.rotationCounter.add(1, ordering: .relaxed).newValue).new"
      let descriptor = Self.retryingInterrupted {
        open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
      }
      guard descriptor >= 0 else { return nil }
      guard Self.retryingInterrupted({ flock(descriptor, LOCK_EX) }) == 0 else {
        let failure = errno
        close(descriptor)
        unlink(name)
        errno = failure
        return nil
      }
      // Another rotation took it for abandoned before it was locked, and removed it.
      var status = stat()
      if fstat(descriptor, &status) == 0, status.st_nlink > 0 {
        return NewFile(path: name, descriptor: descriptor)
      }
      close(descriptor)
    }
  }

  /// Removes the new files of rotations that were killed before they renamed them: those
  /// that no process holds a lock on. A rotation holds the lock on its own from when it
  /// makes it until it is renamed or removed; the kernel lets go of it when the process dies.
  private func removeAbandonedNewFiles(keeping own: String) {
    guard let listing = opendir(directory) else { return }
    defer { closedir(listing) }
    let prefix = String(path.split(separator: "/").last ?? "") + "."
    while let entry = readdir(listing) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard Self.isNewFileName(name, of: prefix) else { continue }
      let file = directory + "/" + name
      guard file != own, let descriptor = Self.openOwnRegularFile(file, flags: O_RDONLY) else { continue }
      var status = stat()
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &status) == 0,
        FileIdentity.of(file) == FileIdentity(status)
      {
        unlink(file)
      }
      close(descriptor)
    }
  }

  /// Whether `name` is that of a rotation's new file of the log whose name is `prefix`
  /// without its final dot: the prefix, a process number, a hyphen, a count, and `.new`.
  static func isNewFileName(_ name: String, of prefix: String) -> Bool {
    guard name.hasPrefix(prefix), name.hasSuffix(".new") else { return false }
    let middle = name.dropFirst(prefix.count).dropLast(4).split(
      separator: "-", omittingEmptySubsequences: false)
    return middle.count == 2
      && middle.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
  }

  /// The keys heard in the whole lines appended to the current file since `read`, when it
  /// is still the same file; `nil`, with `errno`, when they cannot be read.
  private func heardKeys(appendedAfter read: ReadPosition) -> Set<String>? {
    var heard: Set<String> = []
    guard let descriptor = Self.openOwnRegularFile(path, flags: O_RDONLY) else {
      return errno == 0 ? heard : nil
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, FileIdentity(status) == read.identity,
      Int(status.st_size) > read.offset
    else { return heard }
    do throws(LogLines.ReadFailure) {
      try LogLines.forEachLine(of: descriptor, from: read.offset) { Self.noteHeard($0, in: &heard) }
    } catch {
      errno = error.code
      return nil
    }
    return heard
  }

  /// A call that gives a file another name.
  enum NameChange: String {
    case rename
    case link
  }

  /// `rename(2)` or `link(2)`, tried again when a signal interrupts it, unless a test makes
  /// it fail (``injectedFaults``).
  static func changeName(_ call: NameChange, of source: String, to destination: String) -> Int32 {
    let folder = String(destination[..<(destination.lastIndex(of: "/") ?? destination.endIndex)])
    if let failure = injectedFaults.withLock({ $0[folder] })?(call.rawValue) {
      errno = failure
      return -1
    }
    return retryingInterrupted {
      switch call {
      case .rename: return rename(source, destination)
      case .link: return link(source, destination)
      }
    }
  }

  /// `call` again while it fails with `EINTR`, which a network or FUSE file system returns
  /// when a signal comes.
  static func retryingInterrupted(_ call: () -> Int32) -> Int32 {
    while true {
      let result = call()
      guard result < 0, errno == EINTR else { return result }
    }
  }

  /// The calls of a rotation that change which file is where (`rename` or `link`), and the
  /// reads of ``snapshot()`` (`read`), which a test makes fail as a failing disk would, by
  /// the folder of the log: given the call's name, the `errno` it fails with, or `nil` to
  /// make it. By folder, because the tests run
  /// in parallel and others rotate logs of their own meanwhile: one fault for the whole
  /// process failed their rotations too, now and then.
  package static let injectedFaults = Mutex<[String: @Sendable (_ call: String) -> Int32?]>([:])

  /// Tells apart the new files of a process's rotations.
  private static let rotationCounter = Atomic<Int>(0)

  /// The marks of the outcomes that say an announcement was delivered, on any channel,
  /// and of those that say it was missed: the `delivered` field, with or without a space
  /// (Python's `json.dumps` writes one after each colon), or in a record older than that
  /// field, its event's name in quotes (``HistoryRecord/olderOutcomeEvents``).
  static let heardMarks = ["\"delivered\":true", "\"delivered\": true", "\"spoken\"", "\"shown\""]
  static let missedMarks = ["\"delivered\":false", "\"delivered\": false", "\"gave-up\"", "\"not-shown\""]

  /// Whether `line` may be a record that holds one of `marks` as the record reader reads
  /// it (``HistoryRecord/parseKeeping(_:)``, the one definition of a record); false only
  /// when it certainly is not, so that a rotation parses only the lines that may matter.
  ///
  /// A JSON string holds its text as it is, quotes included, or with an escape, which
  /// starts with a backslash; so a line that holds neither a mark nor a backslash is no
  /// such record, however its fields are ordered.
  static func mayBeRecord(_ line: UnsafeBufferPointer<UInt8>, of marks: [String]) -> Bool {
    holds(line, "\\") || marks.contains { holds(line, $0) }
  }

  /// The lines of the older file that a rotation would lose and the history still
  /// needs: missed announcements no replay has been heard for, in their order, up to
  /// ``carriedBytes``. Those missed because flood control dropped them come last: the
  /// newest genuine ones (interrupted, unreachable, broken audio) are carried first,
  /// and dropped ones only fill what room is left.
  ///
  /// A rotation in a flood comes every few thousand records, so only the lines that may
  /// be heard or missed outcomes (``mayBeRecord(_:of:)``) are parsed, and of the missed ones
  /// only those that fit in ``carriedBytes``, newest first; what the reader reads in them
  /// decides.
  static func carried(older: LogLines, current: LogLines) -> [String] {
    carried(older: older, heard: heardKeys(in: older).union(heardKeys(in: current)))
  }

  /// The keys of the announcements that `file` says were heard.
  static func heardKeys(in file: LogLines) -> Set<String> {
    var heard: Set<String> = []
    file.bytes.withUnsafeBufferPointer { bytes in
      for range in file.ranges { noteHeard(UnsafeBufferPointer(rebasing: bytes[range]), in: &heard) }
    }
    return heard
  }

  /// Adds to `heard` the key of the announcement `line` says was heard, if it says so.
  static func noteHeard(_ line: UnsafeBufferPointer<UInt8>, in heard: inout Set<String>) {
    guard mayBeRecord(line, of: heardMarks),
      let record = HistoryRecord.parseKeeping(String(decoding: line, as: UTF8.self))?.record,
      record.decides,
      record.wasDelivered, let key = record.announcementKey
    else { return }
    heard.insert(key)
  }

  /// ``carried(older:current:)`` with the keys heard in both files.
  static func carried(older: LogLines, heard: Set<String>) -> [String] {
    guard !older.ranges.isEmpty else { return [] }
    var size = 0
    var kept: [Int: String] = [:]
    var keys: Set<String> = []
    // Dropped in a flood by what the reader reads, where the bytes did not say so.
    var dropped: Set<Int> = []
    for secondPass in [false, true] {
      for index in older.ranges.indices.reversed() where older.line(index, mayBeRecordOf: missedMarks) {
        let saysDropped = older.line(index, holds: "\"dropped\"") || older.line(index, holds: "\"skipped\"")
        guard kept[index] == nil, (saysDropped || dropped.contains(index)) == secondPass else { continue }
        guard size + older.size(index) <= carriedBytes else { break }
        let line = older.line(index)
        guard let record = HistoryRecord.parseKeeping(line)?.record else { continue }
        if !secondPass, record.reason == "dropped" || record.reason == "skipped" {
          dropped.insert(index)
          continue
        }
        guard record.replays == nil, record.decides, !record.wasDelivered, let key = record.key,
          !heard.contains(key),
          keys.insert(key).inserted
        else { continue }
        size += older.size(index)
        kept[index] = line
      }
    }
    return kept.sorted { $0.key < $1.key }.map(\.value)
  }

  /// Whether `line` holds the bytes of `part`; a search of bytes, which a rotation in a
  /// flood does for thousands of lines.
  static func holds(_ line: UnsafeBufferPointer<UInt8>, _ part: String) -> Bool {
    var part = part
    return part.withUTF8 { needle in
      guard let bytes = line.baseAddress, let wanted = needle.baseAddress, let first = needle.first,
        line.count >= needle.count
      else { return needle.isEmpty }
      var start = 0
      let last = line.count - needle.count
      while start <= last {
        guard let found = memchr(bytes + start, Int32(first), last - start + 1) else { return false }
        let index = bytes.distance(to: found.assumingMemoryBound(to: UInt8.self))
        if memcmp(bytes + index, wanted, needle.count) == 0 { return true }
        start = index + 1
      }
      return false
    }
  }
}

/// glibc's `malloc_trim`, which Swift's Glibc module does not declare (it is in `<malloc.h>`).
@_silgen_name("malloc_trim")
private func releaseFreeMemory(_ pad: Int) -> Int32
