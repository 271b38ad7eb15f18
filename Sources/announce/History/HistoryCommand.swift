import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce history`: the last outcomes, newest first, one line each.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce history",
    abstract: "List the last announcements and whether they were heard, newest first.",
    discussion: """
      One line each, such as "2 minutes ago, not heard (interrupted): Build failed." Every run \
      of announce, the shell hooks and the tmux hooks record their outcomes in \
      ~/.local/state/announce/log.jsonl ($XDG_STATE_HOME/announce/log.jsonl), unless \
      ANNOUNCE_HISTORY=off or --no-history; "announce replay" speaks again what was missed.
      """)

  /// The subcommand's name, as the first argument.
  static let name = "history"

  @Option(name: .customShort("n"), help: ArgumentHelp("How many to list.", valueName: "count"))
  var count: Int = 10

  @Flag(help: "Only the announcements not heard, and not heard since on a replay.")
  var missed = false

  // Unconditional, so that `--since -1m` is refused as negative rather than read as an option.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Only those of the last DURATION, such as 90s, 30m, 1h30m or 2d.", valueName: "duration"))
  var since: String?

  @Flag(help: "Print the log's JSON objects, one per line, newest first, instead of sentences.")
  var json = false

  func validate() throws {
    if let problem = OutcomeLog.placeProblem(environment: ProcessInfo.processInfo.environment) {
      throw ValidationError(problem)
    }
    guard count > 0 else {
      throw ValidationError(
        localized(
          "-n must be a whole number above 0, such as {example}, not {count}.",
          ["example": "10", "count": String(count)]))
    }
    if let since, case .failure(let failure) = DurationText.parse(since) {
      switch failure {
      case .negative:
        throw ValidationError(
          localized(
            "--since cannot be negative, as \"{value}\" is; give how far back to look, such as 30m.",
            ["value": since]))
      case .malformed:
        throw ValidationError(
          localized(
            "--since must be a duration such as 90s, 30m, 1h30m or 2d, not \"{value}\".", ["value": since]))
      }
    }
  }

  func run() throws {
    let log = OutcomeLog.forUser()
    let snapshot = log.snapshot()
    let lines = snapshot.lines
    if let problem = snapshot.failure.map({ Self.unread(log.path, stoppedBy: $0) })
      ?? (lines.isEmpty ? log.readProblem() : nil)
    {
      Terminal(quiet: false).error(problem)
      throw ExitCode(ExitStatus.of(.failed(.notDelivered(problem))))
    }
    let now = Date().timeIntervalSince1970
    let oldest = since.flatMap(Self.seconds(in:)).map { now - $0 }
    let history = History(lines: lines)
    let records = Self.listable(lines)
    let chosen = Self.chosen(
      from: records, count: count, missed: missed ? Set(history.missed.compactMap(\.key)) : nil, since: oldest
    )
    let terminal = Terminal(quiet: false)
    if history.skippedFields > 0 {
      terminal.error(Self.skipped(history.skippedFields, path: log.path))
    }
    guard !chosen.isEmpty else {
      terminal.standardOutput(
        Self.nothing(
          missed: missed, since: since, anything: !records.isEmpty, errorLines: history.errorLines,
          path: log.path))
      return
    }
    for (line, record) in chosen {
      terminal.standardOutput(json ? line : HistoryWords.line(for: record, now: now))
    }
  }

  /// The records `history` can list, oldest first: every outcome, and every input that
  /// was rejected (a hook's JSON document), whose record says why nothing was said.
  static func listable(_ lines: [String]) -> [(line: String, record: HistoryRecord)] {
    History.inTimeOrder(
      lines.compactMap { line in
        HistoryRecord.parseKeeping(line).map { (line: line, record: $0.record) }
      }.filter { $0.record.isOutcome || $0.record.isRejection }, seconds: \.record.seconds)
  }

  /// The records of `lines` listed, newest first (see ``chosen(from:count:missed:since:)``).
  static func listed(
    _ lines: [String], count: Int, missed: Set<String>? = nil, since oldest: Double? = nil
  ) -> [(line: String, record: HistoryRecord)] {
    chosen(from: listable(lines), count: count, missed: missed, since: oldest)
  }

  /// Of `records` (``listable(_:)``), those listed, newest first, at most `count`: with
  /// `missed`, the keys of the missed announcements, only those, never a replay's record;
  /// with `since`, only those recorded since that time (seconds since 1970).
  static func chosen(
    from records: [(line: String, record: HistoryRecord)], count: Int, missed: Set<String>? = nil,
    since oldest: Double? = nil
  ) -> [(line: String, record: HistoryRecord)] {
    var chosen: [(line: String, record: HistoryRecord)] = []
    for (line, record) in records.reversed() {
      guard chosen.count < count else { break }
      if let missed, !missed.contains(record.key ?? "") || record.replays != nil { continue }
      if let oldest, (record.seconds ?? 0) < oldest { continue }
      chosen.append((line, record))
    }
    return chosen
  }

  /// The one sentence when the system stopped a read of the log at `path` with `code`:
  /// the history is not shown, as what it would list or call missed lacks the rest.
  static func unread(_ path: String, stoppedBy code: Int32) -> String {
    localized(
      "The outcome log {path} could not be read to its end ({reason}), so the history cannot be shown; check the disk it is on, then try again.",
      ["path": path, "reason": SystemReason.printed(code)])
  }

  /// The one sentence when `count` values of the log had the wrong type.
  static func skipped(_ count: Int, path: String) -> String {
    localized(
      "{count} value in the outcome log {path} had the wrong type and was left out, and the rest of its record is shown; a program other than announce may have written to it.",
      plural:
        "{count} values in the outcome log {path} had the wrong type and were left out, and the rest of their records is shown; a program other than announce may have written to it.",
      count: count
    ).replacingBytes(of: "{count}", with: String(count)).replacingBytes(of: "{path}", with: path)
  }

  /// The one sentence when nothing is listed.
  /// `errorLines` are those of runs that failed as a whole, which hold no announcement.
  static func nothing(
    missed: Bool, since: String?, anything: Bool, errorLines: Int = 0, path: String
  ) -> String {
    guard anything else {
      guard errorLines > 0 else {
        return localized("Nothing is recorded yet in {path}.").replacingBytes(of: "{path}", with: path)
      }
      let sentence =
        missed
        ? localized(
          "No announcement was missed: {path} holds no announcement, only {count} error line of runs that failed as a whole.",
          plural:
            "No announcement was missed: {path} holds no announcement, only {count} error lines of runs that failed as a whole.",
          count: errorLines)
        : localized(
          "No announcement is recorded: {path} holds no announcement, only {count} error line of runs that failed as a whole.",
          plural:
            "No announcement is recorded: {path} holds no announcement, only {count} error lines of runs that failed as a whole.",
          count: errorLines)
      return sentence.replacingBytes(of: "{path}", with: path).replacingBytes(
        of: "{count}", with: String(errorLines))
    }
    guard let span = since.flatMap(seconds(in:)).map({ SpokenDuration.text(seconds: $0, in: .printed) })
    else {
      return missed ? localized("No announcement was missed.") : localized("No announcement was recorded.")
    }
    return
      (missed
      ? localized("No announcement was missed in the last {duration}.")
      : localized("No announcement was recorded in the last {duration}.")).replacingBytes(
        of: "{duration}", with: span)
  }

  /// The seconds in a duration, as ``DurationText`` reads it; `nil` when it is not one.
  static func seconds(in duration: String) -> Double? { DurationText.seconds(in: duration) }
}

/// The words of `announce history`: plain sentences that a screen reader reads well,
/// in a stable format: `WHEN, OUTCOME: TEXT`.
enum HistoryWords {
  /// "2 minutes ago, not heard (interrupted): Build failed."
  static func line(for record: HistoryRecord, now: Double) -> String {
    let when =
      record.seconds.map {
        localized("{duration} ago").replacingBytes(
          of: "{duration}", with: SpokenDuration.text(seconds: max(0, now - $0), in: .printed))
      } ?? localized("at an unknown time")
    return "\(when), \(outcome(of: record)): \(shown(record.text ?? "", ssml: record.ssml ?? false))"
  }

  /// "heard", "not heard (interrupted)", "heard on replay"; for braille's records,
  /// "shown on the braille display", "not shown (no braille display)": the words of the
  /// record's channel (speech's for a channel this version does not know); "rejected
  /// (invalid input)" for an input that was no announcement.
  static func outcome(of record: HistoryRecord) -> String {
    // Its reason is a sentence in English, for `--json`; these words say what it was.
    if record.isRejection { return localized("rejected (invalid input)") }
    let channel = record.channel ?? .speech
    let replayed = record.replays != nil
    if record.wasDelivered { return channel.deliveredWords(onReplay: replayed) }
    return channel.notDeliveredWords(onReplay: replayed).replacingBytes(
      of: "{reason}", with: reason(record.reason ?? "", on: channel))
  }

  /// A reason of the log in a few words, one of `channel`'s.
  static func reason(_ name: String, on channel: Channel = .speech) -> String {
    // A reason this version does not know, perhaps forged: shown as any text is, on one line.
    channel.reasonInAFewWords(name) ?? (name.isEmpty ? localized("unknown reason") : shown(name, ssml: false))
  }

  /// `text` on one line, and an SSML document as the words it speaks.
  static func shown(_ text: String, ssml: Bool) -> String { ShownText.oneLine(text, ssml: ssml) }
}
