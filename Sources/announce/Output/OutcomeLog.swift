import AnnouncerCore
import FoundationEssentials
import Glibc

/// The log of what detached runs and the shell hook did: one JSON object per line, in
/// the format of `--json`, with `at` (local time, ISO 8601) and `pid` added.
///
/// Only outcomes are kept: `spoken`, `gave-up`, `merged` and `rejected` events, and an
/// `error` line with a sentence when a run failed as a whole, such as when
/// speech-dispatcher could not be reached. The file is rotated when a line would take
/// it past ``bound`` bytes: it becomes `log.jsonl.1`, replacing the one before.
/// Writers in several processes take turns through a lock file beside the log.
struct OutcomeLog: EventSink {
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

  /// The path of the rotated, older log.
  var olderPath: String { path + ".1" }

  /// Appends `event` if it says how an announcement ended: `spoken`, `gave-up` or `merged`.
  func record(_ event: AnnouncerEvent) { record(event, at: Date(), pid: getpid()) }

  /// Appends `event`, stamped with `date` and `pid`, if it says how an announcement ended.
  func record(_ event: AnnouncerEvent, at date: Date, pid: Int32) {
    switch event.kind {
    case .spoken, .gaveUp, .merged:
      append(Self.stamped(EventJSON.line(for: event), at: date, pid: pid))
    case .queued, .attempt, .begin, .mark, .interrupted, .waitingForQuiet, .waitingForConnection,
      .waitingForTurn:
      return
    }
  }

  /// Appends a `rejected` line for an input line that could not become an announcement.
  func rejected(line: Int, input: String, reason: String, time: Duration) {
    append(
      Self.stamped(
        EventJSON.rejected(lineNumber: line, input: input, reason: reason, time: time),
        at: Date(), pid: getpid()))
  }

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

  /// Appends one line, rotating first when it would take the file past ``bound``.
  /// A log that cannot be written is given up on quietly: nobody is there to tell.
  func append(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let lock = open(path + ".lock", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard lock >= 0 else { return }
    defer { close(lock) }
    guard flock(lock, LOCK_EX) == 0 else { return }
    var status = stat()
    if stat(path, &status) == 0, status.st_size > 0, Int(status.st_size) + bytes.count > bound {
      rename(path, olderPath)
    }
    let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard file >= 0 else { return }
    defer { close(file) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
      if written <= 0 { return }
      offset += written
    }
  }
}
