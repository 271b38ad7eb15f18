import Glibc

/// The program's entry: `init`, `hook-finished`, `hook-threshold`, `tmux-alert`, `history` and `replay` as
/// the very first argument choose those subcommands (`init ssh` prints SSH settings, any other `init` a shell hook);
/// anything else is the `announce` command itself.
///
/// The choice is made here, not with ArgumentParser's subcommands, because a command
/// with subcommands also gets a `help` subcommand and takes any first TEXT that names
/// one; `announce help` and `announce "Saved" init` must go on speaking. To speak the
/// word "init" (or "history", "replay") itself, end the options first: `announce -- init`.
@main
enum Main {
  static func main() async {
    // A closed pipe must not kill us before a usage error is even written: writes then
    // fail with EPIPE, which Terminal ignores. (libspeechd also writes with plain write().)
    signal(SIGPIPE, SIG_IGN)
    // A file-size limit (ulimit -f) must fail the outcome log's write with EFBIG, which
    // it names, instead of killing the run.
    signal(SIGXFSZ, SIG_IGN)
    // The language of the printed lines is chosen here, before any thread starts, from
    // the locale's variables; nothing changes the process's locale or environment after
    // this (issue #46), so strerror and libspeechd speak C's English to the log.
    _ = Wording.printed
    let arguments = Array(CommandLine.arguments.dropFirst())
    // The process's one owner of its signals, armed here and only here, for the commands
    // that deliver. init, history and hook-threshold (which runs at every prompt) arm
    // nothing, and a signal ends them as it would any program.
    let signals: ProcessSignals
    switch arguments.first {
    case "init", HookThreshold.name, HistoryCommand.name: signals = .unarmed
    default: signals = await ProcessSignals.armed()
    }
    let status =
      switch arguments.first {
      case "init" where arguments.dropFirst().first == SSHInit.name:
        await OneLineErrors.status(of: SSHInit.self, Array(arguments.dropFirst(2)))
      case "init": await OneLineErrors.status(of: ShellInit.self, Array(arguments.dropFirst()))
      case HookFinished.name:
        await OneLineErrors.status(of: HookFinished.self, Array(arguments.dropFirst()), signals: signals)
      case HookThreshold.name:
        await OneLineErrors.status(of: HookThreshold.self, Array(arguments.dropFirst()))
      case TmuxAlert.name:
        await OneLineErrors.status(of: TmuxAlert.self, Array(arguments.dropFirst()), signals: signals)
      case HistoryCommand.name:
        await OneLineErrors.status(of: HistoryCommand.self, Array(arguments.dropFirst()))
      case ReplayCommand.name:
        await OneLineErrors.status(of: ReplayCommand.self, Array(arguments.dropFirst()), signals: signals)
      case Doctor.name:
        await OneLineErrors.status(of: Doctor.self, Array(arguments.dropFirst()), signals: signals)
      default: await OneLineErrors.status(of: Announce.self, arguments, signals: signals)
      }
    // The one exit: a signal ends a run through the same result as its normal end.
    exit(status)
  }
}
