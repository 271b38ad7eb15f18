import ArgumentParser

/// Whether announcements go to the desktop as notifications: not at all, beside the
/// other channels, or alone.
enum NotifyMode: String, Equatable, Sendable, CaseIterable {
  /// No notifications, the default: Orca reads notifications aloud, so with speech on a
  /// screen reader user would hear each announcement twice.
  case off
  /// A notification for each announcement, as well as speech (and braille, if asked).
  case on
  /// The notification alone, without speech.
  case only
}

/// The notification options of the command: `--notify`, `--notify-only`, and
/// `ANNOUNCE_NOTIFY=on|only|off` for the shell hooks, tmux alerts, `replay`,
/// `--when-done` and `--detach`, which all start announce without these options.
///
/// A flag on the command line wins over the variable.
struct NotifyOptions: ParsableArguments {
  /// The variable read when neither flag is given.
  static let variable = "ANNOUNCE_NOTIFY"

  @Flag(help: "Show each announcement as a desktop notification too, as well as speaking it")
  var notify = false

  @Flag(help: "Show each announcement as a desktop notification only, without speech")
  var notifyOnly = false

  func validate() throws {
    if notify && notifyOnly {
      throw ValidationError(localized("--notify and --notify-only cannot be used together; choose one."))
    }
  }

  /// The mode asked for: a flag, else `ANNOUNCE_NOTIFY`, else off.
  ///
  /// Throws `ValidationError` (exit 64) for a variable that is not `on`, `only` or `off`.
  func mode(environment: [String: String]) throws -> NotifyMode {
    if notifyOnly { return .only }
    if notify { return .on }
    return try Self.mode(environment: environment)
  }

  /// The mode `ANNOUNCE_NOTIFY` asks for, for a run started without the options; off
  /// when unset or empty.
  ///
  /// Throws `ValidationError` (exit 64) for a value that is not `on`, `only` or `off`.
  static func mode(environment: [String: String]) throws -> NotifyMode {
    guard let value = environment[Self.variable], !value.isEmpty else { return .off }
    guard let mode = NotifyMode(rawValue: value.lowercased()) else {
      throw ValidationError(
        localized(
          "{variable} must be on, only or off; \"{value}\" is none of them.",
          ["variable": Self.variable, "value": value]))
    }
    return mode
  }
}
