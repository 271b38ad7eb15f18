import FoundationEssentials

@testable import announce

/// The history's records: a log line read as `announce history` and `replay` read it
/// (``HistoryRecord/parse(_:)`` and ``HistoryRecord/parseKeeping(_:)``), then written
/// again with the writer's own pieces (``EventJSON/quoted(_:)``,
/// ``HistoryRecord/fields(for:)`` and ``OutcomeLog/stamped(_:at:pid:)``).
///
/// - A line the strict reader reads is read the same by the keeping reader, with nothing skipped.
/// - A record read and written again reads back the same: its event, text, key, replays,
///   and the announcement a replay would speak.
/// - Its timestamp, when it has one, is read back from the writer's own stamp to the millisecond.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistoryRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let line = inputText(data, size)
  let strict = HistoryRecord.parse(line)
  guard let (record, skipped) = HistoryRecord.parseKeeping(line) else {
    require(strict == nil, "a line the strict reader reads, the keeping reader reads")
    return 0
  }
  if let strict {
    require(strict == record && skipped == 0, "both readers read a whole record the same")
  }
  var written = "{\"event\":" + EventJSON.quoted(record.event)
  if let text = record.text { written += ",\"text\":" + EventJSON.quoted(text) }
  if let key = record.key { written += ",\"key\":" + EventJSON.quoted(key) }
  if let replays = record.replays { written += ",\"replays\":" + EventJSON.quoted(replays) }
  written += HistoryRecord.fields(for: record.announcement) + "}"
  let seconds = record.seconds
  if let seconds, seconds.isFinite, abs(seconds) < 1e11 {
    written = OutcomeLog.stamped(written, at: Date(timeIntervalSince1970: seconds), pid: record.pid ?? 1)
  }
  guard let again = HistoryRecord.parse(written) else {
    require(false, "a record written again reads: \(written.debugDescription)")
    return 0
  }
  require(again.event == record.event, "the event reads back the same")
  require(again.text == record.text, "the text reads back the same")
  require(again.key == record.key && again.replays == record.replays, "the keys read back the same")
  require(
    again.announcement == record.announcement,
    "the announcement reads back the same: \(again.announcement) against \(record.announcement)")
  if let seconds, seconds.isFinite, abs(seconds) < 1e11, let back = again.seconds {
    require(abs(back - seconds) < 0.0015, "the timestamp reads back: \(seconds) became \(back)")
  }
  return 0
}
