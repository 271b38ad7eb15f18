import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc
import Synchronization

/// Records the outcome of every announcement of a run in the ``OutcomeLog``, with what
/// is needed to speak it again the same way (see ``HistoryRecord``), for `announce
/// history` and `announce replay`.
///
/// A log that cannot be written never changes an outcome or the exit status: the first
/// record left out is said once, in ``OutcomeLog/problem()``'s sentence, where someone
/// can hear it, and the run goes on.
final class HistoryRecorder: EventSink {
  private let log: OutcomeLog
  private let replays: String?
  /// Which channels must deliver, which each record says of its own.
  private let plan: DeliveryPlan
  /// Where the first failure to write is said; `nil` in the background, where the
  /// parent said it.
  private let terminal: Terminal?
  /// The start of every key of this run: unique among the user's processes.
  private let keyPrefix: String
  /// The announcements waiting for their outcome, by id, as spoken, with how many of
  /// their channels have not ended them yet.
  private let waiting = Mutex<[AnnouncementID: (announcement: Announcement, channels: Int)]>([:])
  /// Appends the records, on a thread of its own.
  private let writer: HistoryWriter
  /// Whether a rejected input is recorded: the one JSON document of a run is, since it
  /// is often a hook's whose standard error nobody reads (`--input json-document`).
  private let keepsRejected: Bool
  /// - Parameters:
  ///   - log: where the outcomes are written.
  ///   - replays: the key of the recorded announcement the run speaks again, which each
  ///     outcome then names in `replays`; `nil` for a run of its own.
  ///   - plan: the run's channels, and which of them must deliver.
  ///   - terminal: where the first failure to write is said; `nil` when nobody hears it.
  ///   - keepsRejected: whether a rejected input is recorded, with its reason.
  init(
    log: OutcomeLog, replays: String? = nil, plan: DeliveryPlan = .speech, terminal: Terminal?,
    keepsRejected: Bool = false
  ) {
    self.log = log
    self.keepsRejected = keepsRejected
    self.replays = replays
    self.plan = plan
    self.terminal = terminal
    let reported = Atomic(false)
    writer = HistoryWriter(log: log) { [log] failure in
      guard let terminal, !reported.exchange(true, ordering: .relaxed) else { return }
      terminal.error(log.sentence(for: failure))
    }
    let now = Date().timeIntervalSince1970
    keyPrefix = "\(getpid())-\(Int64((now * 1000).rounded()))-"
  }

  /// How many announcements may wait for their outcome here before ``queued(_:as:)``
  /// holds the input back while outcomes are being reported.
  static let maxUnreported = 4_096

  /// Keeps `item` until each of its channels has ended it: with its whole text, when
  /// what is said is a long one shortened.
  func queued(_ item: DeliveryItem) {
    var announcement = item.spoken
    if let whole = item.whole { announcement.text = whole }
    queued(announcement, as: item.id, channels: item.channels.count)
  }

  /// Keeps `announcement`, already spoken (``Announcement/asSpoken``), until each of its
  /// `channels` has ended it.
  ///
  /// In a flood the announcer drops lines faster than this recorder is told of it on a
  /// loaded machine, and every outcome not yet reported waits in memory twice, as an
  /// event and here (issue #39: 104 MiB for 100,000 lines). So while more than
  /// ``maxUnreported`` wait, the reading of input pauses a millisecond at a time, as long
  /// as the outcomes keep coming; a queue that long of announcements still being spoken
  /// (`--max-queue`) makes no outcomes come, and pauses it for one millisecond only.
  func queued(_ announcement: Announcement, as id: AnnouncementID, channels: Int = 1) {
    var count = waiting.withLock { waiting in
      waiting[id] = (announcement, channels)
      return waiting.count
    }
    guard count > Self.maxUnreported else { return }
    for _ in 0..<100 {
      usleep(1_000)
      let now = waiting.withLock { $0.count }
      guard now < count, now > Self.maxUnreported / 2 else { return }
      count = now
    }
  }

  /// How many announcements wait here for their outcome. For tests.
  var unreportedCount: Int { waiting.withLock { $0.count } }

  /// Writes the record of `report` at once, when it ends an announcement: nothing waits
  /// for the end of the run, or for another channel.
  func reported(_ report: any ChannelReport) { reported(report, at: Date(), pid: getpid()) }

  /// Writes the record of `report`, stamped with `date` and `pid`, when it ends an
  /// announcement on its channel; the one way every channel's outcomes are recorded.
  func reported(_ report: any ChannelReport, at date: Date, pid: Int32) {
    guard let ending = report.ending else { return }
    let queued = waiting.withLock { waiting -> Announcement? in
      guard var entry = waiting[report.id] else { return nil }
      entry.channels -= 1
      waiting[report.id] = entry.channels > 0 ? entry : nil
      return entry.announcement
    }
    guard ending.recorded else { return }
    let line = { @Sendable [self] in recordLine(for: report, queued: queued, at: date, pid: pid) }
    if ending.outcome?.failure?.wasSkipped == true {
      // A flood: its records are made on the writer's thread, and only those kept.
      writer.write(dropped: true, line)
    } else {
      write(line())
    }
  }

  /// A rejected input line is no outcome the history shows, and a flood of them would
  /// push out those it does: it is not recorded, except for a run's one JSON document
  /// (``keepsRejected``), whose record keeps its start and the reason in English.
  func rejected(line: Int, input: String, reason: String, time: Duration) {
    guard keepsRejected else { return }
    let text = OutcomeLog.cut(input, toBytes: OutcomeLog.maxTextBytes)
    write(
      OutcomeLog.stamped(
        "{\"event\":\"rejected\",\"text\":" + OutcomeLog.quoted(text) + ",\"reason\":"
          + OutcomeLog.quoted(reason) + "}", at: Date(), pid: getpid()))
  }

  /// The log line of `report`'s record, given the announcement the run queued: the
  /// report as `--json` has it, with the whole text instead of a part's, the record's
  /// key, its channel, whether that channel had to deliver and whether it did (see
  /// ``HistoryRecord``), and the settings.
  func recordLine(for report: any ChannelReport, queued: Announcement?, at date: Date, pid: Int32) -> String {
    let announcement = OutcomeLog.bounded(report.recorded(queued))
    let json = report.jsonLine(withText: announcement.text)
    // Cut by its bytes: `dropLast()` on a String walks every character.
    var line = String(decoding: json.utf8.dropLast(), as: UTF8.self)
    line += ",\"key\":" + EventJSON.quoted(keyPrefix + String(report.id.rawValue))
    line += ",\"channel\":\"" + report.channel.rawValue + "\""
    line += plan.requires(report.channel) ? ",\"required\":true" : ",\"required\":false"
    line += report.ending?.outcome?.failure == nil ? ",\"delivered\":true" : ",\"delivered\":false"
    if let replays { line += ",\"replays\":" + EventJSON.quoted(replays) }
    line += HistoryRecord.fields(for: announcement)
    return OutcomeLog.stamped(line + "}", at: date, pid: pid)
  }

  private func write(_ line: String) { writer.write(line) }

  /// Returns once every record so far is in the log.
  func finish() async { await writer.finish() }

  /// ``finish()`` for tests that are not async.
  func waitUntilWritten() { writer.waitUntilWritten() }
}

/// Whether runs record their outcomes: `ANNOUNCE_HISTORY=off` or `--no-history` turns it off.
enum HistorySwitch {
  /// The variable that turns the history on or off.
  static let variable = "ANNOUNCE_HISTORY"

  /// Whether `environment` leaves the history on; throws a usage error for a value
  /// that is neither `on` nor `off`.
  static func isOn(environment: [String: String]) throws -> Bool {
    let on = try isSwitchedOn(environment: environment)
    if on, let problem = OutcomeLog.placeProblem(environment: environment) { throw ValidationError(problem) }
    return on
  }

  /// Whether `environment`'s ``variable`` leaves the history on.
  private static func isSwitchedOn(environment: [String: String]) throws -> Bool {
    guard let text = environment[variable], !text.isEmpty else { return true }
    switch text.lowercased() {
    case "on": return true
    case "off": return false
    default:
      throw ValidationError(
        localized(
          "{variable}={value} is not on or off; set it to off to stop recording outcomes, or unset it.",
          ["variable": variable, "value": text]))
    }
  }
}
