import Glibc

/// The whole lines of one file of the outcome log as bytes, with where each line is: what
/// a rotation reads, without a `String` for each line. A rotation in a flood reads 6 MB
/// every few thousand records, and a `String` per line took twice that in memory.
struct LogLines {
  /// The bytes of the whole lines, line breaks included.
  private(set) var bytes: [UInt8] = []
  /// Where each line is in ``bytes``, without its line break.
  private(set) var ranges: [Range<Int>] = []
  /// The file read; `nil` when there was none.
  private(set) var identity: OutcomeLog.FileIdentity?
  /// The `errno` of the call that stopped the read, other than there being no file; a
  /// rotation that read part of a file must not carry only that part.
  private(set) var failure: Int32?

  init() {}

  /// `lines`, as a file that holds them would be read.
  init(_ lines: [String]) {
    for line in lines {
      ranges.append(bytes.count..<(bytes.count + line.utf8.count))
      bytes += line.utf8
      bytes.append(UInt8(ascii: "\n"))
    }
  }

  /// The whole lines of `path`, when it is a regular file of this user's.
  static func read(_ path: String) -> LogLines {
    var result = LogLines()
    let descriptor = OutcomeLog.retryingInterrupted {
      open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    }
    guard descriptor >= 0 else {
      if errno != ENOENT { result.failure = errno }
      return result
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, OutcomeLog.isOwnRegularFile(status) else { return result }
    result.identity = OutcomeLog.FileIdentity(status)
    // Read to the end, however the file grew since its size was taken.
    var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + (64 << 10))
    var count = 0
    while true {
      if count == bytes.count { bytes += [UInt8](repeating: 0, count: 64 << 10) }
      let read = bytes.withUnsafeMutableBytes { buffer in
        Glibc.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
      }
      if read < 0, errno == EINTR { continue }
      if read < 0 { result.failure = errno }
      guard read > 0 else { break }
      count += read
    }
    // What follows the last line break is empty, or a line a crash cut, or one being written.
    let end = bytes[..<count].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    bytes.removeSubrange(end...)
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      if index > start { result.ranges.append(start..<index) }
      start = index + 1
    }
    result.bytes = bytes
    return result
  }

  /// A read of a file of the log that the system stopped, with its `errno`.
  struct ReadFailure: Error {
    var code: Int32
  }

  /// Calls `body` with each whole line of `path` in turn, reading 64 KiB at a time and
  /// keeping none; the file read and the end of its last whole line, or `nil` when there
  /// was none.
  static func forEachLine(
    of path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(ReadFailure) -> OutcomeLog.ReadPosition? {
    let descriptor = OutcomeLog.retryingInterrupted {
      open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    }
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw ReadFailure(code: errno)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, OutcomeLog.isOwnRegularFile(status) else { return nil }
    let end = try forEachLine(of: descriptor, from: 0, body)
    return OutcomeLog.ReadPosition(identity: OutcomeLog.FileIdentity(status), offset: end)
  }

  /// Calls `body` with each whole line of `descriptor` from byte `start`; the end of the
  /// last whole line.
  @discardableResult
  static func forEachLine(
    of descriptor: Int32, from start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(ReadFailure) -> Int {
    guard lseek(descriptor, off_t(start), SEEK_SET) >= 0 else { throw ReadFailure(code: errno) }
    var end = start
    var carry: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count < 0 { throw ReadFailure(code: errno) }
      guard count > 0 else { break }
      carry += chunk[..<count]
      var lineStart = 0
      carry.withUnsafeBufferPointer { buffer in
        for index in buffer.indices where buffer[index] == UInt8(ascii: "\n") {
          if index > lineStart { body(UnsafeBufferPointer(rebasing: buffer[lineStart..<index])) }
          lineStart = index + 1
        }
      }
      end += lineStart
      carry.removeFirst(lineStart)
    }
    return end
  }

  /// Line `index` as text.
  func line(_ index: Int) -> String { String(decoding: bytes[ranges[index]], as: UTF8.self) }

  /// The size of line `index` with its line break.
  func size(_ index: Int) -> Int { ranges[index].count + 1 }

  /// Whether line `index` may be a record that holds one of `marks` (``OutcomeLog/mayBeRecord(_:of:)``).
  func line(_ index: Int, mayBeRecordOf marks: [String]) -> Bool {
    let range = ranges[index]
    return bytes.withUnsafeBufferPointer { buffer in
      OutcomeLog.mayBeRecord(UnsafeBufferPointer(rebasing: buffer[range]), of: marks)
    }
  }

  /// Whether line `index` holds the bytes of `part`.
  func line(_ index: Int, holds part: String) -> Bool {
    let range = ranges[index]
    return bytes.withUnsafeBufferPointer { buffer in
      OutcomeLog.holds(UnsafeBufferPointer(rebasing: buffer[range]), part)
    }
  }
}
