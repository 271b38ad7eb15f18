@testable import announce

/// The rotation's carry (``OutcomeLog/carried(older:current:)``) against the reader
/// (``History/missed``): they must agree on what a missed record is.
///
/// The input is split at its first NUL into the older file's lines and the current file's.
///
/// - When the older file's missed records fit in ``OutcomeLog/carriedBytes``, the carry keeps
///   exactly the missed announcements that the reader finds in the older file.
/// - The carry keeps whole lines of the older file, each once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCarry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let files = inputBytes(data, size).split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) }
  let older = files[0]
  let current = files.count > 1 ? files[1] : []
  let carried = OutcomeLog.carried(older: LogLines(older), current: LogLines(current))
  require(carried.allSatisfy(older.contains), "the carry keeps lines of the older file")
  require(Set(carried).count == carried.count, "the carry keeps each line once")
  guard older.reduce(0, { $0 + $1.utf8.count + 1 }) <= OutcomeLog.carriedBytes else { return 0 }
  let olderKeys = Set(older.compactMap { HistoryRecord.parseKeeping($0)?.record.key })
  let missed = Set(History(lines: older + current).missed.compactMap(\.key)).intersection(olderKeys)
  let kept = Set(carried.compactMap { HistoryRecord.parseKeeping($0)?.record.key })
  require(
    kept == missed,
    "the carry keeps what the reader calls missed: kept \(kept.sorted()), missed \(missed.sorted())")
  return 0
}
