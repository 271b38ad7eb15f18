import AnnouncerCore
import FoundationEssentials
import Glibc

/// A command that a shell hook saw finish.
struct FinishedCommand: Equatable {
  /// The command line as typed; empty when the shell could not tell.
  var commandLine: String
  /// Its exit status, as `$?` reported it.
  var status: Int32
  /// How long it ran, in seconds.
  var seconds: Double
  /// The status of each part of its last pipeline, as PIPESTATUS has them; empty when
  /// the shell did not say.
  var pipeStatus: [Int32] = []
}

/// The shell hook's settings, read from the environment each time a command finishes.
///
/// An empty variable counts as unset, as for the other `ANNOUNCE_` variables.
/// `ANNOUNCE_MIN_SECONDS` is a duration, read as every duration is (``DurationText``),
/// and one that is not (`0x10`, `-5`) counts as unset too: the hook runs in the
/// background, where an error message would reach nobody.
struct HookSettings: Equatable {
  /// Commands that ran shorter than this many seconds are not announced.
  var minimumSeconds = 10.0
  /// Programs whose commands are never announced.
  var ignored = HookSettings.defaultIgnored
  /// The sentence for status 0, with `{command}`, `{status}` and `{duration}`.
  var successFormat = Wording.marked("{command} finished after {duration}")
  /// The sentence for any other status.
  var failureFormat = Wording.marked("{command} failed with status {status} after {duration}")
  /// Whether a command stopped with Control-C (status 130) is announced.
  var announcesInterrupted = false
  /// The sound icon played before the sentence for status 0, so a listener knows at once.
  var successIcon: String?
  /// The sound icon played before the sentence for any other status.
  var failureIcon: String?

  /// Interactive programs: the user was there while they ran, so their end is no news.
  static let defaultIgnored: [String] = [
    "vi", "vim", "nvim", "nano", "emacs", "less", "more", "most", "man", "info", "ssh", "mosh",
    "top", "htop", "btop", "watch", "tmux", "screen", "su", "tig", "mc", "ranger", "fzf",
  ]

  init() {}

  /// The settings from `ANNOUNCE_MIN_SECONDS`, `ANNOUNCE_IGNORE`, `ANNOUNCE_FORMAT_OK`,
  /// `ANNOUNCE_FORMAT_FAIL`, `ANNOUNCE_ON_INTERRUPT`, `ANNOUNCE_ICON_OK` and `ANNOUNCE_ICON_FAIL`.
  /// An icon name that is not one safe word counts as unset, like an invalid number.
  init(environment: [String: String]) {
    func value(_ name: String) -> String? {
      guard let text = environment[name], !text.isEmpty else { return nil }
      return text
    }
    if let seconds = value("ANNOUNCE_MIN_SECONDS").flatMap(DurationText.seconds(in:)) {
      minimumSeconds = seconds
    }
    if let text = value("ANNOUNCE_IGNORE") {
      ignored = text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
    successFormat = value("ANNOUNCE_FORMAT_OK") ?? successFormat
    failureFormat = value("ANNOUNCE_FORMAT_FAIL") ?? failureFormat
    announcesInterrupted = value("ANNOUNCE_ON_INTERRUPT") == "1"
    successIcon = value("ANNOUNCE_ICON_OK").flatMap(Self.icon)
    failureIcon = value("ANNOUNCE_ICON_FAIL").flatMap(Self.icon)
  }

  /// The sound icon `text` names; `nil` when it is not one safe word.
  static func icon(_ text: String) -> String? {
    VoiceOptions.isSafeName(text) ? text : nil
  }

  /// The variables the hook reads whose value it cannot use, so that it acts as if they
  /// were unset, with the valid values for a sentence (see `announce doctor`):
  /// `("ANNOUNCE_MIN_SECONDS", "a duration, such as 10, 90s or 1m")`.
  static func unusable(environment: [String: String]) -> [(variable: String, valid: String)] {
    var found: [(String, String)] = []
    func check(_ name: String, _ valid: String, _ usable: (String) -> Bool) {
      if let text = environment[name], !text.isEmpty, !usable(text) { found.append((name, valid)) }
    }
    check("ANNOUNCE_MIN_SECONDS", Wording.marked("a duration, such as 10, 90s or 1m")) {
      DurationText.seconds(in: $0) != nil
    }
    check("ANNOUNCE_ON_INTERRUPT", Wording.marked("1 to announce commands stopped with Control-C, or 0")) {
      ["0", "1"].contains($0)
    }
    check("ANNOUNCE_ICON_OK", Wording.marked("one word naming a sound icon, such as message")) {
      icon($0) != nil
    }
    check("ANNOUNCE_ICON_FAIL", Wording.marked("one word naming a sound icon, such as message")) {
      icon($0) != nil
    }
    return found
  }

  /// The sound icon to play before the sentence for a command that ended with `status`.
  func icon(forStatus status: Int32) -> String? {
    status == 0 ? successIcon : failureIcon
  }
}

/// Decides whether a finished command is announced, and in which words.
enum HookMessage {
  /// The status of a command stopped with Control-C: 128 plus SIGINT.
  static let interruptedStatus: Int32 = 130
  /// The status of a job stopped with Control-Z: 128 plus SIGTSTP. It has not finished.
  static let suspendedStatus: Int32 = 148
  /// How the command is named when the shell could not tell its text.
  static let unknownCommand = Wording.marked("the command")

  /// The sentence to speak for `command`, or `nil` when it is not announced, in the
  /// language of `wording`. A format of the user's own is in no catalog and stays as it is.
  static func sentence(
    for command: FinishedCommand, settings: HookSettings, in wording: Wording = .english
  ) -> String? {
    guard command.seconds >= settings.minimumSeconds else { return nil }
    if command.status == suspendedStatus { return nil }
    if command.status == interruptedStatus && !settings.announcesInterrupted { return nil }
    let words = CommandWords(command.commandLine)
    let ignored = Set(settings.ignored)
    if words.programs.contains(where: ignored.contains) { return nil }
    // A failed pipeline is named after the part that failed, as `set -o pipefail`
    // would report it: in `true | false`, false failed, not true.
    var shortName = words.shortName
    if command.status != 0, command.pipeStatus.count > 1 {
      shortName = words.failedPartName(pipeStatus: command.pipeStatus) ?? shortName
    }
    let name = shortName.isEmpty ? wording.localized(unknownCommand) : shortName
    let format = wording.localized(command.status == 0 ? settings.successFormat : settings.failureFormat)
    // In one pass, so that a command line holding a placeholder (`echo {duration}`) is said as typed.
    let sentence = filled(
      format,
      [
        (key: "command", value: name), (key: "status", value: String(command.status)),
        (key: "duration", value: SpokenDuration.text(seconds: command.seconds, in: wording)),
      ])
    // A command's name keeps its case; "the command" starts a sentence like any word.
    return shortName.isEmpty ? sentence.capitalizedFirst : sentence
  }
}
