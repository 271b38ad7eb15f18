import FoundationEssentials

/// What a delivery channel other than speech tells the run's sinks the moment it happens
/// (speech's own come as ``AnnouncerCore/AnnouncerEvent``s): a braille flash's outcome,
/// a key that said a flash was read.
///
/// Each report words itself for each sink, so a new channel brings its own reports and
/// no ``EventSink`` changes.
protocol ChannelReport: Sendable {
  /// Its line in `--json`.
  var jsonLine: String { get }
  /// Its line in `--verbose`.
  var verboseLine: String { get }
  /// Writes its record, stamped with `date` and `pid`, through `recorder`, when it tells
  /// how an announcement ended.
  func record(in recorder: HistoryRecorder, at date: Date, pid: Int32)
}

extension ChannelReport {
  /// A report that ends no announcement has no record.
  func record(in recorder: HistoryRecorder, at date: Date, pid: Int32) {}
}
