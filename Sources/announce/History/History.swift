import AnnouncerCore
import FoundationEssentials
import Glibc

/// What the outcome log says about the user's announcements: which were heard, which
/// were missed, and what a replay may speak again.
///
/// An announcement is *missed* when its own outcome is `gave-up` (or `not-shown`, with
/// `--braille-only`) and no replay of it
/// (a record whose `replays` is its key) has been heard since. A replay names the key of
/// the announcement it speaks again, never another replay's, so replays of replays never
/// chain, and a replay is never itself a missed announcement: nothing replays itself.
struct History: Sendable {
  /// The records of the log, oldest first; lines that are not records are left out.
  var records: [HistoryRecord] = []
  /// The process that wrote each claim among ``records``, by the claim's index.
  private var claimants: [Int: Claimant] = [:]
  /// How many fields of the wrong type were left out of records that were kept.
  private(set) var skippedFields = 0
  /// How many `error` lines, of runs that failed as a whole, the log holds.
  private(set) var errorLines = 0

  /// The history in `log`'s two files, oldest first, skipping damaged lines.
  init(log: OutcomeLog) { self.init(lines: log.lines()) }

  /// The history in `lines`, oldest first, skipping lines that are not records, and
  /// fields of the wrong type in those that are.
  init(lines: [String]) { append(lines: lines) }

  /// Adds `lines`, newer than those read so far.
  mutating func append(lines: [String]) {
    for line in lines { append(line, parsed: HistoryRecord.parseKeeping(line)) }
  }

  /// Adds `line`, newer than those read so far, as `parsed` from it.
  mutating func append(_ line: String, parsed: (record: HistoryRecord, skipped: Int)?) {
    guard let (record, skipped) = parsed else { return }
    skippedFields += skipped
    if record.event == HistoryRecord.claimEvent, let pid = record.pid {
      claimants[records.count] = Claimant(pid: pid, start: Claimant.start(inClaimLine: line))
    }
    if record.event == "error" { errorLines += 1 }
    records.append(record)
  }

  /// The outcomes, oldest first: `spoken` and `gave-up` records with a text.
  var outcomes: [HistoryRecord] { Self.inTimeOrder(records.filter(\.isOutcome), seconds: \.seconds) }

  /// `items` ordered by their time, the order of the log where times are equal or missing
  /// (an item without one takes the time of the one before it).
  ///
  /// The log is in the order of writing but for one exception: the missed announcements
  /// a rotation carries into the new file follow the newer records of the older file,
  /// and must not be listed or replayed as newer than they are.
  static func inTimeOrder<Item>(_ items: [Item], seconds: (Item) -> Double?) -> [Item] {
    var time = -Double.infinity
    let timed = items.enumerated().map { index, item in
      time = seconds(item) ?? time
      return (time: time, index: index, item: item)
    }
    return timed.sorted { ($0.time, $0.index) < ($1.time, $1.index) }.map(\.item)
  }

  /// The keys of the announcements that were heard, first or on a replay.
  var heardKeys: Set<String> {
    Set(records.lazy.filter { $0.decides && $0.wasDelivered }.compactMap(\.announcementKey))
  }

  /// The announcements missed and not heard since, oldest first: the original records
  /// (never replays), each once. Records from before announce kept keys cannot be
  /// replayed, and are left out.
  var missed: [HistoryRecord] {
    let heard = heardKeys
    var seen: Set<String> = []
    return outcomes.filter { record in
      guard record.decides, record.replays == nil, !record.wasDelivered, let key = record.key,
        !heard.contains(key)
      else {
        return false
      }
      return seen.insert(key).inserted
    }
  }

  /// The keys that a replay still running has claimed and not yet recorded an outcome for.
  ///
  /// - Parameter isRunning: whether the process that made a claim still runs.
  func claimedKeys(isRunning: (Claimant) -> Bool) -> Set<String> {
    var claims: [String: Claimant] = [:]
    for (index, record) in records.enumerated() {
      if let claimant = claimants[index] {
        for key in record.keys ?? [] { claims[key] = claimant }
      } else if record.isOutcome, let replayed = record.replays, claims[replayed]?.pid == record.pid {
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
  func toReplay(last: Bool, limit: Int = .max, isRunning: (Claimant) -> Bool) -> [HistoryRecord] {
    let claimed = claimedKeys(isRunning: isRunning)
    if last {
      guard let newest = outcomes.last(where: { $0.decides && $0.announcementKey != nil }) else { return [] }
      let key = newest.announcementKey
      // Another replay speaks it already: two at once must not say it twice.
      if let key, claimed.contains(key) { return [] }
      let original = outcomes.last { $0.decides && $0.key == key && $0.replays == nil }
      var record = original ?? newest
      record.key = key
      record.replays = nil
      return [record]
    }
    return Array(missed.filter { !claimed.contains($0.key ?? "") }.suffix(limit))
  }

  /// Whether the process that made a claim still runs: the process with its number
  /// started at the same time. A claim from before claims kept the start counts only
  /// while a process of the user's own has its number.
  static func isRunning(_ claimant: Claimant) -> Bool {
    guard claimant.pid > 0 else { return false }
    guard let start = claimant.start else { return kill(claimant.pid, 0) == 0 }
    return Claimant.start(of: claimant.pid) == start
  }

  /// The line a replay writes before it speaks, claiming `keys`, with its process's
  /// start, so that a process that gets the same number later is not taken for it.
  static func claimLine(
    keys: [String], at date: Date = Date(), pid: Int32 = getpid(),
    start: Int64? = Claimant.start(of: getpid())
  ) -> String {
    let list = keys.map(EventJSON.quoted).joined(separator: ",")
    let started = start.map { ",\"start\":\($0)" } ?? ""
    return OutcomeLog.stamped(
      "{\"event\":\"\(HistoryRecord.claimEvent)\",\"keys\":[\(list)]\(started)}", at: date, pid: pid)
  }

  /// Reads `log` and claims what a replay speaks, so that two replays at once never speak
  /// the same announcement; the history as read, and the records claimed, at most `limit`.
  ///
  /// The whole log is read and parsed without the lock. Under the lock, only what was
  /// appended since is read, and the claim is appended; when a rotation came between,
  /// the log is read again. So the lock is held for about as long as an append takes,
  /// however long the log, and a read never straddles a rotation. A claim that cannot be
  /// written claims nothing: the replay then speaks nothing, rather than what another
  /// replay may speak too. So does a log that could not be read to its end: the records
  /// past the failed read, the newest, may be missed ones or other replays' claims.
  static func claim(
    in log: OutcomeLog, last: Bool, limit: Int = .max
  ) -> Result<(History, [HistoryRecord]), ClaimFailure> {
    for attempt in 0...OutcomeLog.rotationTries {
      var snapshot = log.snapshot()
      if let code = snapshot.failure { return .failure(.unread(code)) }
      let read = History(lines: snapshot.lines)
      log.reached(.parsed)
      let locked = log.whileLocked { () -> Result<(History, [HistoryRecord]), ClaimFailure>? in
        var history = read
        if let newer = log.lines(after: snapshot) {
          history.append(lines: newer)
        } else if attempt == OutcomeLog.rotationTries {
          // Rotations keep coming between: read it all under the lock this once.
          snapshot = log.snapshot()
          if let code = snapshot.failure { return .failure(.unread(code)) }
          history = History(lines: snapshot.lines)
        } else {
          return nil
        }
        let chosen = history.toReplay(last: last, limit: limit, isRunning: isRunning)
        if !chosen.isEmpty, let failure = log.appendHoldingLock(claimLine(keys: chosen.compactMap(\.key))) {
          return .failure(.unwritten(failure))
        }
        return .success((history, chosen))
      }
      switch locked {
      case .failure(let failure): return .failure(.unwritten(failure))
      case .success(.some(let result)): return result
      case .success(.none): continue
      }
    }
    return .failure(.unwritten(.busy))
  }

  /// Why a replay could not claim what it would speak.
  enum ClaimFailure: Error, Equatable {
    /// The log could not be read to its end: the system stopped a read with this `errno`.
    case unread(Int32)
    /// The claim could not be written.
    case unwritten(OutcomeLog.WriteFailure)
  }
}

/// The process that made a claim: its number, and when it started, which tells it from
/// a later process given the same number after it ended.
struct Claimant: Equatable, Sendable {
  var pid: Int32
  /// Field 22 of `/proc/PID/stat`: clock ticks from boot to the process's start.
  var start: Int64?

  /// The start of process `pid`, from `/proc/PID/stat`; `nil` when it is not running.
  static func start(of pid: Int32) -> Int64? {
    let file = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var bytes = [UInt8](repeating: 0, count: 2048)
    let count = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    let text = String(decoding: bytes[..<count], as: UTF8.self)
    // The name in field 2 is in brackets and may hold spaces and brackets itself.
    guard let nameEnd = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: nameEnd)...].split(separator: " ")
    return fields.count > 19 ? Int64(fields[19]) : nil
  }

  /// The `start` of a claim line; `nil` when it has none.
  static func start(inClaimLine line: String) -> Int64? {
    struct Start: Decodable { var start: Int64? }
    return (try? JSONDecoder().decode(Start.self, from: Data(line.utf8)))?.start
  }
}
