import AnnouncerCore
import ArgumentParser

/// Where announcements go: speech, speech and braille, or braille only.
enum BrailleMode: String, Equatable, Sendable, CaseIterable {
  /// Speech alone, as announce always did.
  case off
  /// Speech, and every announcement on the braille display too.
  case on
  /// The braille display alone, without speech.
  case only
}

/// The braille options of the command: `--braille`, `--braille-only`, the pace and the
/// shortest flash time, and `ANNOUNCE_BRAILLE=on|only|off` for the shell hooks, `replay`,
/// `--when-done` and tmux alerts, which all start announce without these options.
///
/// A flag on the command line wins over the variable.
struct BrailleOptions: ParsableArguments {
  /// The variable read when neither flag is given.
  static let variable = "ANNOUNCE_BRAILLE"

  @Flag(help: "Show each announcement on the braille display too (through brltty), as well as speaking it")
  var braille = false

  @Flag(help: "Show each announcement on the braille display only, without speech")
  var brailleOnly = false

  @Option(
    name: .customLong("braille-pace"),
    help: ArgumentHelp(
      "Reading pace for panning long text on the braille display, in words a minute (default: \(BrailleTiming.defaultWordsPerMinute))",
      valueName: "words"))
  var wordsPerMinute: Int?

  /// A duration, read as every duration is (``DurationText``): `0x10` is refused, not 16.
  @Option(
    name: .customLong("braille-flash"), parsing: .unconditional,
    help: ArgumentHelp(
      "Shortest time a message stays on the braille display, in seconds (default: \(BrailleTiming.defaultMinimumFlash.components.seconds))",
      valueName: "seconds"),
    transform: DurationText.optionValue)
  var minimumFlash: Double?

  func validate() throws {
    if braille && brailleOnly {
      throw ValidationError(localized("--braille and --braille-only cannot be used together; choose one."))
    }
    if let wordsPerMinute, !BrailleTiming.wordsPerMinuteRange.contains(wordsPerMinute) {
      let range = BrailleTiming.wordsPerMinuteRange
      throw ValidationError(
        localized(
          "--braille-pace must be from {lowest} to {highest} words a minute; {value} is out of range.",
          [
            "lowest": String(range.lowerBound), "highest": String(range.upperBound),
            "value": String(wordsPerMinute),
          ]))
    }
    if let minimumFlash, !(minimumFlash.isFinite && minimumFlash >= 0 && minimumFlash <= 600) {
      throw ValidationError(localized("--braille-flash must be from 0 to 600 seconds."))
    }
  }

  /// The mode asked for: a flag, else `ANNOUNCE_BRAILLE`, else off.
  ///
  /// Throws `ValidationError` (exit 64) for a variable that is not `on`, `only` or `off`.
  func mode(environment: [String: String]) throws -> BrailleMode {
    if brailleOnly { return .only }
    if braille { return .on }
    return try Self.mode(environment: environment)
  }

  /// The mode `ANNOUNCE_BRAILLE` asks for, for a run started without the options (a
  /// hook, a tmux alert, `replay`); off when unset or empty.
  ///
  /// Throws `ValidationError` (exit 64) for a value that is not `on`, `only` or `off`.
  static func mode(environment: [String: String]) throws -> BrailleMode {
    guard let value = environment[Self.variable], !value.isEmpty else { return .off }
    guard let mode = BrailleMode(rawValue: value.lowercased()) else {
      throw ValidationError(
        localized(
          "{variable} must be on, only or off; \"{value}\" is none of them.",
          ["variable": Self.variable, "value": value]))
    }
    return mode
  }

  /// The pace and flash time asked for, with the library's defaults for the rest.
  var timing: BrailleTiming {
    var timing = BrailleTiming()
    if let wordsPerMinute { timing.wordsPerMinute = wordsPerMinute }
    if let minimumFlash { timing.minimumFlash = .milliseconds(Int64((minimumFlash * 1000).rounded())) }
    return timing
  }
}
