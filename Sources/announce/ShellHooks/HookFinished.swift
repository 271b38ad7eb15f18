import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce hook-finished`: what the shell hook of `announce init` runs, in the
/// background, when a command that may qualify has finished.
///
/// It decides with ``HookMessage`` whether and how the command is announced, and speaks
/// the sentence with ``HookSpeech``: out of the shell's session, as the background half
/// of `--detach` does, with its outcome in the ``OutcomeLog``.
struct HookFinished: DeliveringCommand {
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

  func run(signals: ProcessSignals) async throws -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    let finished = FinishedCommand(
      commandLine: commandLine.joined(separator: " "), status: status,
      seconds: Double(milliseconds) / 1000,
      pipeStatus: pipeStatus.split(separator: " ").compactMap { Int32($0) })
    let settings = HookSettings(environment: environment)
    let wording = SpokenLanguage(environment: environment).wording
    guard let sentence = HookMessage.sentence(for: finished, settings: settings, in: wording) else {
      return ExitStatus.success
    }
    // A desktop notification's body says which command and where: the sentence may
    // name neither in full.
    let origin = [finished.commandLine, Self.workingFolder].filter { !$0.isEmpty }.joined(separator: "\n")
    return await HookSpeech.speak(
      sentence, soundIcon: settings.icon(forStatus: status), hook: "The shell hook", environment: environment,
      origin: origin, signals: signals)
  }

  /// The folder the hook runs in, which is the shell's; empty when it cannot be read.
  static var workingFolder: String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
