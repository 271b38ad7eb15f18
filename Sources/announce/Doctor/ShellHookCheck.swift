import FoundationEssentials
import Glibc

/// Check 5a: whether announce's shell hook is active in the shell that ran doctor, and
/// with which threshold and ignore list.
///
/// A program cannot read its shell's variables, so the hook exports
/// ``variable`` before every prompt: the shell's name, its process id, and its
/// `ANNOUNCE_MIN_SECONDS` and `ANNOUNCE_IGNORE` as they are then, separated by tabs.
/// The process id tells the shell that ran doctor from an outer one whose export a
/// shell without the hook inherited.
struct ShellHookCheck {
  /// The variable the hook exports.
  static let variable = "ANNOUNCE_SHELL_HOOK"

  var environment: [String: String]
  /// The process that started doctor: the shell, when a person typed the command.
  var parent: pid_t = getppid()
  /// Whether `ancestor` is an ancestor of the parent; reads /proc.
  var isAncestor: (pid_t) -> Bool = { ShellHookCheck.isAncestorOfParent($0) }

  /// What the hook's variable holds.
  struct State: Equatable {
    var shell: String
    var pid: pid_t
    var settings: HookSettings

    /// Parses the variable's value; `nil` when it is not one the hook wrote.
    init?(_ value: String) {
      let fields = value.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false).map(
        String.init)
      guard fields.count >= 2, ["bash", "zsh", "fish"].contains(fields[0]), let pid = pid_t(fields[1]),
        pid > 0
      else { return nil }
      shell = fields[0]
      self.pid = pid
      settings = HookSettings(environment: [
        "ANNOUNCE_MIN_SECONDS": fields.count > 2 ? fields[2] : "",
        "ANNOUNCE_IGNORE": fields.count > 3 ? fields[3] : "",
      ])
    }
  }

  func run() -> DoctorLine {
    let shellName = environment["SHELL"].flatMap { $0.split(separator: "/").last.map(String.init) } ?? "bash"
    let setUp = Self.setUp(for: shellName)
    guard let value = environment[Self.variable], let state = State(value) else {
      return DoctorLine(
        check: "shell-hook", finding: .notInUse,
        said: localized(
          "No announce shell hook is active in this shell; to hear when a long command ends, {setUp}.",
          ["setUp": setUp]),
        facts: [("active", .flag(false))])
    }
    let hookFacts: [(String, DoctorFact)] = [
      ("shell", .text(state.shell)), ("pid", .number(Double(state.pid))),
      ("minSeconds", .number(state.settings.minimumSeconds)), ("ignore", .texts(state.settings.ignored)),
    ]
    guard state.pid == parent else {
      let isOuter = isAncestor(state.pid)
      let outer =
        isOuter
        ? localized("an outer {shell}, process {pid}", ["shell": state.shell, "pid": String(state.pid)])
        : localized("another shell")
      return DoctorLine(
        check: "shell-hook", finding: .notInUse,
        said: localized(
          "The announce shell hook is active in {outer}, but not in the shell that ran doctor; to hear when a long command ends here, {setUp}.",
          ["outer": outer, "setUp": setUp]),
        facts: [("active", .flag(false)), ("outer", .flag(isOuter))] + hookFacts)
    }
    let ignored = state.settings.ignored
    let ignoring: String
    if ignored == HookSettings.defaultIgnored {
      ignoring = localized(
        "ignores the {count} programs of its default list, such as vim, less and ssh",
        ["count": String(ignored.count)])
    } else if ignored.isEmpty {
      ignoring = localized("ignores no program")
    } else {
      ignoring = localized("ignores {programs}", ["programs": ListWords.all(ignored)])
    }
    return DoctorLine(
      check: "shell-hook", finding: .fine,
      said: localized(
        "The {shell} hook is active in this shell: it announces commands that run {seconds} second or longer, and {ignoring}.",
        plural:
          "The {shell} hook is active in this shell: it announces commands that run {seconds} seconds or longer, and {ignoring}.",
        count: NumberWords.pluralCount(state.settings.minimumSeconds),
        [
          "shell": state.shell, "seconds": NumberWords.decimal(state.settings.minimumSeconds),
          "ignoring": ignoring,
        ]),
      facts: [("active", .flag(true))] + hookFacts)
  }

  /// How a person sets the hook up in `shell`, for the end of a sentence, in the
  /// language of the locale.
  static func setUp(for shell: String) -> String {
    let (line, file) =
      switch shell {
      case "zsh": ("eval \"$(announce init zsh)\"", "~/.zshrc")
      case "fish": ("announce init fish | source", "~/.config/fish/config.fish")
      default: ("eval \"$(announce init bash)\"", "~/.bashrc")
      }
    return localized("add {line} to {file}", ["line": line, "file": file])
  }

  /// Whether `ancestor` is the parent of this process or one of its ancestors, from
  /// the fourth field of /proc/PID/stat.
  static func isAncestorOfParent(_ ancestor: pid_t) -> Bool {
    var current = getppid()
    for _ in 0..<64 {
      if current == ancestor { return true }
      guard current > 1, let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 1, let next = pid_t(fields[1]) else { return false }
      current = next
    }
    return false
  }
}
