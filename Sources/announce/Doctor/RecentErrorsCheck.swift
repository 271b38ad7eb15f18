import FoundationEssentials

/// Check 7: the last failures of the runs nobody watches, from the outcome log: of the
/// shell hook, of the tmux hooks, and of other background runs (`--detach`), those of
/// the last day. They went to the log because no terminal would have shown them.
struct RecentErrorsCheck {
  /// How far back an error counts as recent.
  static let window: Duration = .seconds(24 * 60 * 60)

  var environment: [String: String]
  /// Whether the lines are for `--report`: the log's text is left out, since a hook's
  /// error quotes the command line it would have announced.
  var forReport = false
  /// Now, in seconds since 1970.
  var now: Double = Date().timeIntervalSince1970

  /// Whose failure an error line records.
  enum Source: String, CaseIterable {
    case shellHook = "shell-hook"
    case tmuxHook = "tmux-hook"
    case background

    /// The words a hook's error starts with (see ``HookSpeech``).
    var prefix: String? {
      switch self {
      case .shellHook: "The shell hook "
      case .tmuxHook: "The tmux hook "
      case .background: nil
      }
    }

    /// Who failed, in the language of the locale, as the subject of a sentence.
    var name: String {
      switch self {
      case .shellHook: localized("the shell hook")
      case .tmuxHook: localized("a tmux hook")
      case .background: localized("a background announcement")
      }
    }

    static func of(_ text: String) -> Source {
      allCases.first { $0.prefix.map(text.hasPrefix) ?? false } ?? .background
    }
  }

  /// One error line of the log.
  struct ErrorLine: Decodable, Equatable {
    var event: String
    var text: String
    var status: Int32
    var at: String
  }

  func run() -> [DoctorLine] {
    let log = OutcomeLog.forUser(environment: environment)
    return lines(for: [log.olderPath, log.path].flatMap { Self.errorLines(in: $0) })
  }

  /// The lines for the log's `errors`, oldest first: the last of each source within
  /// ``window``, or one line saying there was none.
  func lines(for errors: [ErrorLine]) -> [DoctorLine] {
    let earliest = now - Double(Self.window.components.seconds)
    var last: [Source: ErrorLine] = [:]
    var counts: [Source: Int] = [:]
    for error in errors {
      guard let time = HistoryRecord.seconds(fromTimestamp: error.at), time >= earliest, time <= now + 60
      else { continue }
      let source = Source.of(error.text)
      last[source] = error
      counts[source, default: 0] += 1
    }
    guard !last.isEmpty else {
      return [
        DoctorLine(
          check: "recent-errors", finding: .fine,
          said: localized("No shell hook, tmux hook or background announcement failed in the last day."))
      ]
    }
    return Source.allCases.compactMap { source in
      guard let error = last[source], let count = counts[source] else { return nil }
      let times =
        count == 1
        ? localized("once")
        : localized("{count} time", plural: "{count} times", count: count)
          .replacingBytes(of: "{count}", with: String(count))
      EnglishOriginals.remember(times, english: count == 1 ? "once" : "\(count) times")
      let values: KeyValuePairs = [
        "source": source.name, "times": times, "time": Self.clockTime(of: error.at),
        "status": String(error.status), "error": error.text,
      ]
      // The report leaves out the error's text, which may quote a command line.
      return DoctorLine(
        check: "recent-errors", finding: .notInUse,
        said: forReport
          ? localized("In the last day {source} failed {times}, last at {time} with status {status}", values)
          : localized(
            "In the last day {source} failed {times}, last at {time} with status {status}: {error}", values),
        facts: [
          ("source", .text(source.rawValue)), ("count", .number(Double(count))), ("at", .text(error.at)),
          ("status", .number(Double(error.status))),
        ] + (forReport ? [] : [("error", .text(error.text))]))
    }
  }

  /// The error lines of the log file at `path`; none when it cannot be read.
  static func errorLines(in path: String) -> [ErrorLine] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    let decoder = JSONDecoder()
    return text.split(separator: "\n").compactMap { line in
      guard line.contains("\"event\":\"error\"") else { return nil }
      return try? decoder.decode(ErrorLine.self, from: Data(line.utf8))
    }
  }

  /// `10:15`, the local time of day of a stamp.
  static func clockTime(of stamp: String) -> String {
    let characters = Array(stamp)
    return characters.count >= 16 ? String(characters[11..<16]) : stamp
  }
}
