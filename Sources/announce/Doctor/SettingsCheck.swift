import AnnouncerCore
import ArgumentParser

/// Check 0: every `ANNOUNCE_` variable, read by the same code as a run, a hook and a
/// tmux alert read it, so that a value that makes every hook run fail with status 64
/// (or that a hook silently ignores) is named before anything else.
struct SettingsCheck {
  var environment: [String: String]

  /// One line per variable that is not valid, or one line saying all are.
  func run() -> [DoctorLine] {
    var problems: [DoctorLine] = []
    func bad(_ variable: String, _ said: String) {
      problems.append(
        DoctorLine(
          check: "settings", finding: .somethingElseBroken, said: said,
          facts: [("variable", .text(variable))]))
    }
    // The settings of an announcement, each checked on its own so that every bad one is
    // named; some, such as ANNOUNCE_MAX_QUEUE, have no place in an announcement.
    for setting in Settings.all {
      guard let variable = setting.variable else { continue }
      do {
        _ = try setting.change(fromEnvironment: environment)
      } catch {
        bad(variable, Self.runFails(RunFailure(readingSettings: error).sentence))
      }
    }
    for (variable, check) in Self.runSwitches {
      do { try check(environment) } catch {
        bad(variable, Self.runFails(RunFailure(readingSettings: error).sentence))
      }
    }
    for (variable, valid) in HookSettings.unusable(environment: environment) {
      bad(
        variable,
        localized(
          "{variable}={value} is not {valid}, so the shell hook acts as if it were unset; set it to one, or unset it.",
          ["variable": variable, "value": environment[variable] ?? "", "valid": localized(valid)]))
    }
    guard problems.isEmpty else { return problems }
    let set = environment.keys.filter { $0.hasPrefix("ANNOUNCE_") && $0 != ShellHookCheck.variable }.sorted()
    return [
      DoctorLine(
        check: "settings", finding: .fine,
        said: set.isEmpty
          ? localized("No ANNOUNCE_ variable is set, so announce uses its defaults.")
          : localized(
            "The ANNOUNCE_ variables set are all valid: {variables}.",
            ["variables": ListWords.all(set)]),
        facts: [("variables", .texts(set))])
    ]
  }

  /// The variables read outside ``Settings``, by the parser a run uses.
  static let runSwitches: [(String, @Sendable ([String: String]) throws -> Void)] = [
    (Settings.maxQueue.variable ?? "", { _ = try Settings.maxQueue.resolved(nil, environment: $0) }),
    (HistorySwitch.variable, { _ = try HistorySwitch.isOn(environment: $0) }),
    (BrailleOptions.variable, { _ = try BrailleOptions.mode(environment: $0) }),
    (NotifyOptions.variable, { _ = try NotifyOptions.mode(environment: $0) }),
  ]

  /// The parser's sentence, and what it does to the runs nobody watches.
  static func runFails(_ message: String) -> String {
    func withoutPeriod(_ text: String) -> String { text.hasSuffix(".") ? String(text.dropLast()) : text }
    let problem = withoutPeriod(message)
    let template = Wording.marked(
      "{problem}; until then every shell hook and tmux alert fails with status 64 and says nothing.")
    let english = EnglishOriginals.english(of: message)
    // A parser's sentence that no catalog translates yet keeps the whole line English,
    // rather than half one language and half another.
    guard english != message else { return template.replacingBytes(of: "{problem}", with: problem) }
    EnglishOriginals.remember(problem, english: withoutPeriod(english))
    return localized(template, ["problem": problem])
  }

  /// The announcement the environment makes, leaving out the variables that are not
  /// valid (their lines say so), so that the test sentence is spoken as the user's
  /// announcements are.
  static func usableAnnouncement(environment: [String: String]) -> Announcement {
    var announcement = Announcement("")
    for setting in Settings.all {
      if let change = try? setting.change(fromEnvironment: environment) { change(&announcement) }
    }
    return announcement
  }
}
