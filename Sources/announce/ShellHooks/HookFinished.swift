import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce hook-finished`: what the shell hook of `announce init` runs, in the
/// background, when a command that may qualify has finished.
///
/// It leaves the shell's session, decides with ``HookMessage`` whether and how the
/// command is announced, and speaks the sentence as the background half of `--detach`
/// does, with its outcome in the ``OutcomeLog``.
struct HookFinished: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce hook-finished",
    abstract: "Announce that a command finished, as the shell hook of announce init does.",
    discussion: """
      Reads ANNOUNCE_MIN_SECONDS, ANNOUNCE_IGNORE, ANNOUNCE_FORMAT_OK, ANNOUNCE_FORMAT_FAIL, \
      ANNOUNCE_ON_INTERRUPT, ANNOUNCE_ICON_OK and ANNOUNCE_ICON_FAIL. The announcement waits up to 30 seconds for other speech \
      to end, or ANNOUNCE_TIMEOUT. The outcome goes to the log of --detach.
      """)

  /// The subcommand's name, as the first argument.
  static let name = "hook-finished"
  /// The retry window of the hook's announcements, in seconds, when `ANNOUNCE_TIMEOUT`
  /// is not set: the hook is in no hurry, and other speech may well be playing.
  static let defaultTimeout = 30.0

  @Option(help: ArgumentHelp("The command's exit status.", valueName: "status"))
  var status: Int32

  @Option(help: ArgumentHelp("How long the command ran, in milliseconds.", valueName: "milliseconds"))
  var milliseconds: Int

  @Option(
    help: ArgumentHelp(
      "The statuses of the parts of the command's last pipeline, separated by spaces.",
      valueName: "statuses"))
  var pipeStatus: String = ""

  @Argument(help: "The command line as typed; empty when not known.")
  var commandLine: [String] = []

  func run() async throws {
    // Out of the terminal's session, so that neither Control-C nor closing the
    // terminal cuts the announcement off. It fails harmlessly when already a leader.
    setsid()
    let environment = ProcessInfo.processInfo.environment
    let finished = FinishedCommand(
      commandLine: commandLine.joined(separator: " "), status: status,
      seconds: Double(milliseconds) / 1000,
      pipeStatus: pipeStatus.split(separator: " ").compactMap { Int32($0) })
    let settings = HookSettings(environment: environment)
    guard let sentence = HookMessage.sentence(for: finished, settings: settings) else { return }
    do {
      let speaker = try Announce.speaking(sentence, soundIcon: settings.icon(forStatus: status))
      try await speaker.run()
    } catch let error as ExitCode {
      throw error
    } catch {
      // An invalid ANNOUNCE_ variable: say so where the user can find it.
      let status = Announce.exitCode(for: error).rawValue
      OutcomeLog.forUser().record(
        error: "The shell hook could not announce \"\(sentence)\": \(Announce.message(for: error))",
        status: status)
      throw ExitCode(status)
    }
  }
}

extension Announce {
  /// The command that speaks `sentence` for the shell hook, as the background half of
  /// `--detach` does: every setting comes from the environment, as for a command line
  /// without options, except the sound icon and the hook's own default timeout.
  ///
  /// The values are set on the command, not written into arguments to be parsed again,
  /// and checked by the same ``validate()`` as a command line's.
  static func speaking(_ sentence: String, soundIcon: String?) throws -> Announce {
    var command = try parse([])
    command.texts = [sentence]
    command.detach.isChild = true
    command.announcer.soundIcon = soundIcon ?? command.announcer.soundIcon
    command.announcer.timeout = command.announcer.timeout ?? HookFinished.defaultTimeout
    try command.validate()
    return command
  }
}
