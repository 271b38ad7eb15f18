import AnnouncerCore
import FoundationEssentials
import Glibc

/// What the outcome log says about the user's announcements: which were heard, which
/// were missed, and what a replay may speak again.
///
/// An announcement is *missed* when its own outcome is `gave-up` and no replay of it
/// (a record whose `replays` is its key) has been heard since. A replay names the key of
/// the announcement it speaks again, never another replay's, so replays of replays never
/// chain, and a replay is never itself a missed announcement: nothing replays itself.
struct History {
  /// The records of the log, oldest first; lines that are not records are left out.
  var records: [HistoryRecord]

  /// The history in `log`'s two files, oldest first, skipping damaged lines.
  init(log: OutcomeLog) { self.init(lines: log.lines()) }

  /// The history in `lines`, oldest first, skipping lines that are not records.
  init(lines: [String]) { records = lines.compactMap(HistoryRecord.parse) }

  /// The outcomes, oldest first: `spoken` and `gave-up` records with a text.
  var outcomes: [HistoryRecord] { records.filter(\.isOutcome) }

  /// The keys of the announcements that were heard, first or on a replay.
  var heardKeys: Set<String> {
    Set(records.lazy.filter { $0.isOutcome && $0.wasHeard }.compactMap(\.announcementKey))
  }

  /// The announcements missed and not heard since, oldest first: the original records
  /// (never replays), each once. Records from before announce kept keys cannot be
  /// replayed, and are left out.
  var missed: [HistoryRecord] {
    let heard = heardKeys
    var seen: Set<String> = []
    return outcomes.filter { record in
      guard record.replays == nil, !record.wasHeard, let key = record.key, !heard.contains(key) else {
        return false
      }
      return seen.insert(key).inserted
    }
  }

  /// The keys that a replay still running has claimed and not yet recorded an outcome for.
  ///
  /// - Parameter isRunning: whether the process with that id still runs.
  func claimedKeys(isRunning: (Int32) -> Bool) -> Set<String> {
    var claims: [String: Int32] = [:]
    for record in records {
      if record.event == HistoryRecord.claimEvent, let pid = record.pid {
        for key in record.keys ?? [] { claims[key] = pid }
      } else if record.isOutcome, let replayed = record.replays, claims[replayed] == record.pid {
        claims[replayed] = nil
      }
    }
    return Set(claims.filter { isRunning($0.value) }.keys)
  }

  /// When the last replay began, in seconds since 1970; `nil` when there was none.
  var lastReplay: Double? {
    records.last { $0.event == HistoryRecord.claimEvent }?.seconds
  }

  /// What `announce replay` speaks again: the newest `limit` missed announcements that
  /// no running replay has claimed, oldest first; with `last`, the last announcement
  /// whatever its outcome, as its original was recorded.
  func toReplay(last: Bool, limit: Int = .max, isRunning: (Int32) -> Bool) -> [HistoryRecord] {
    if last {
      guard let newest = outcomes.last(where: { $0.announcementKey != nil }) else { return [] }
      let key = newest.announcementKey
      let original = outcomes.last { $0.key == key && $0.replays == nil }
      var record = original ?? newest
      record.key = key
      record.replays = nil
      return [record]
    }
    let claimed = claimedKeys(isRunning: isRunning)
    return Array(missed.filter { !claimed.contains($0.key ?? "") }.suffix(limit))
  }

  /// Whether the process `pid` still runs (or runs as another user).
  static func isRunning(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }

  /// The line a replay writes before it speaks, claiming `keys`.
  static func claimLine(keys: [String], at date: Date = Date(), pid: Int32 = getpid()) -> String {
    let list = keys.map(EventJSON.quoted).joined(separator: ",")
    return OutcomeLog.stamped(
      "{\"event\":\"\(HistoryRecord.claimEvent)\",\"keys\":[\(list)]}", at: date, pid: pid)
  }

  /// Reads `log` and claims what a replay speaks, under the log's lock, so that two
  /// replays at once never speak the same announcement; the history as read, and the
  /// records claimed, at most `limit`. `nil` when the lock could not be had within a second.
  static func claim(in log: OutcomeLog, last: Bool, limit: Int = .max) -> (History, [HistoryRecord])? {
    log.whileLocked {
      let history = History(log: log)
      let chosen = history.toReplay(last: last, limit: limit, isRunning: isRunning)
      if !chosen.isEmpty {
        _ = log.appendHoldingLock(claimLine(keys: chosen.compactMap(\.key)))
      }
      return (history, chosen)
    }
  }
}
