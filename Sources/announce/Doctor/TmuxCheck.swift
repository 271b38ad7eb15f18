import FoundationEssentials
import Glibc

/// Check 5b, inside tmux only: whether announce's tmux hooks are set on the server
/// doctor runs in, asked of tmux itself (`tmux show-hooks -g`).
struct TmuxCheck {
  /// How long tmux may take to answer.
  static let answerBound: Duration = .seconds(2)

  /// The socket of the tmux server, from `TMUX` (`SOCKET,PID,SESSION`); `nil` outside tmux.
  static func socket(environment: [String: String]) -> String? {
    guard let value = environment["TMUX"], !value.isEmpty else { return nil }
    return value.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init)
  }

  var socket: String
  /// Runs tmux with these arguments and returns its standard output; `nil` when it could
  /// not be run or did not answer in time.
  var tmux: ([String]) -> String? = { ChildOutput.read("tmux", $0, within: TmuxCheck.answerBound) }

  func run() -> DoctorLine {
    guard let hooks = tmux(["-S", socket, "show-hooks", "-g"]) else {
      return DoctorLine(
        check: "tmux", finding: .notInUse,
        said: localized("tmux did not answer within 2 seconds, so its hooks could not be checked."))
    }
    let kinds = Self.alertsSpoken(in: hooks)
    guard !kinds.isEmpty else {
      return DoctorLine(
        check: "tmux", finding: .notInUse,
        said: localized(
          "tmux has none of announce's hooks, so the alerts of windows you are not looking at are not spoken; to hear them, run announce init tmux >> ~/.tmux.conf, then tmux source ~/.tmux.conf."
        ),
        facts: [("alerts", .texts([]))])
    }
    return DoctorLine(
      check: "tmux", finding: .fine,
      said: localized(
        "tmux speaks the {alerts} alerts of windows you are not looking at.",
        ["alerts": ListWords.all(kinds)]),
      facts: [("alerts", .texts(kinds))])
  }

  /// The alerts whose hooks run announce, such as `bell`, from `tmux show-hooks -g`,
  /// whose lines start with the hook's name, such as `alert-bell[47] if-shell -F …`;
  /// a command in braces may go on over more lines.
  static func alertsSpoken(in hooks: String) -> [String] {
    var found: Set<String> = []
    var current: String?
    for line in hooks.split(separator: "\n") {
      if let first = line.first, !first.isWhitespace, first != "}" {
        current = alertKinds.first { line.hasPrefix("alert-\($0)[") || line.hasPrefix("alert-\($0) ") }
      }
      if let kind = current, line.contains("tmux-alert") { found.insert(kind) }
    }
    return alertKinds.filter(found.contains)
  }

  /// The alerts announce's tmux hooks speak, in the order they are named.
  static let alertKinds = ["bell", "activity", "silence"]
}
