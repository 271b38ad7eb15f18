import ArgumentParser

/// `announce hook-threshold`: what the shell hooks of `announce init` run when
/// `ANNOUNCE_MIN_SECONDS` has changed, to learn its milliseconds.
///
/// The hook's fast check, which decides whether a command may qualify and so whether to
/// start `hook-finished`, compares milliseconds in the shell. So that it reads the
/// variable exactly as `hook-finished` does (``HookSettings``, ``DurationText``: `1m` is
/// 60000, and `0x10` counts as unset), the shell asks this command once per value and
/// keeps the answer; it never parses a duration itself.
struct HookThreshold: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce hook-threshold",
    abstract: "Print the milliseconds of ANNOUNCE_MIN_SECONDS, as the shell hooks of announce init ask.",
    discussion: """
      Prints a whole number of milliseconds, rounded down: 10000 when the value is empty \
      or not a duration, as hook-finished reads it then.
      """)

  /// The subcommand's name, as the first argument.
  static let name = "hook-threshold"

  /// The most milliseconds printed: more than 31 years, and within every shell's integers.
  static let largest = 999_999_999_999.0

  @Argument(help: "The value of ANNOUNCE_MIN_SECONDS.")
  var value: String = ""

  func run() {
    print(Self.milliseconds(of: value))
  }

  /// The threshold `value` gives, in whole milliseconds rounded down, so that the
  /// shell's check never holds back a command that `hook-finished` would announce.
  static func milliseconds(of value: String) -> Int {
    let seconds = HookSettings(environment: ["ANNOUNCE_MIN_SECONDS": value]).minimumSeconds
    return Int(min((seconds * 1000).rounded(.down), largest))
  }
}
