import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce init bash|zsh|fish`: prints the shell hook that announces long commands.
struct ShellInit: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce init",
    abstract: "Print a shell hook that announces each long command when it ends, or tmux settings.",
    discussion: """
      Put one line in your shell's start-up file. In ~/.bashrc: eval "$(announce init bash)". \
      In ~/.zshrc: eval "$(announce init zsh)". In ~/.config/fish/config.fish: \
      announce init fish | source. A command is announced when it ran at least \
      ANNOUNCE_MIN_SECONDS, 10 unless set. --replay-key binds a key to announce replay in \
      bash, zsh or fish; tmux has no such key. "announce init tmux >> ~/.tmux.conf" makes \
      windows you are not looking at speak up when they ring the bell, show activity or fall \
      silent. "announce init ssh HOST" prints the ~/.ssh/config lines that make announce on \
      HOST speak on this machine. man announce describes the other variables.
      """)

  /// A shell that `init` has a hook for.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  /// What `init` prints the configuration of: a shell, or tmux.
  enum Target: String, ExpressibleByArgument, CaseIterable {
    case bash, zsh, fish, tmux

    /// The shell, or `nil` for tmux.
    var shell: Shell? { Shell(rawValue: rawValue) }
  }

  @Argument(help: "The shell: bash, zsh or fish; or tmux, for its window alerts.")
  var shell: Target

  @Option(
    name: .customLong("replay-key"),
    help: ArgumentHelp(
      "Also bind this key to announce replay, written as the shell writes keys, such as \\er for Alt-R; bash, zsh and fish only.",
      valueName: "key"))
  var replayKey: String?

  func validate() throws {
    guard let replayKey else { return }
    if shell.shell == nil {
      throw ValidationError(
        localized("--replay-key binds a key in a shell; give bash, zsh or fish, not tmux."))
    }
    if !ReplayBinding.accepts(replayKey) {
      throw ValidationError(
        localized(
          "--replay-key \"{key}\" is not a key the binding can name; write it as the shell does, such as \\er for Alt-R.",
          ["key": replayKey]))
    }
  }

  func run() throws {
    let announce = ShellHook.executablePath()
    var text =
      shell.shell.map { ShellHook.script(for: $0, announce: announce) }
      ?? TmuxHooks.configuration(announce: announce)
    if let shell = shell.shell, let replayKey {
      text += ReplayBinding.script(for: shell, key: replayKey)
    }
    print(text, terminator: "")
  }
}

/// The text of the shell hooks.
///
/// The shell side stays small: it notes when a command starts, and when the prompt
/// comes back it compares the time against `ANNOUNCE_MIN_SECONDS` in milliseconds, which
/// it asks `announce hook-threshold` for once per value, so that no shell parses a
/// duration its own way.
/// It hands the hook's variables to the process by name, so that they work whether or
/// not they are exported.
/// Only a command that may qualify starts `announce hook-finished`, in the background,
/// fully detached and silent, so the prompt never waits for it. Everything else, the
/// ignore list, the words and the speech, happens there.
enum ShellHook {
  /// The most characters of a command line that the hook passes on. Linux refuses to
  /// start a program with one argument over 128 KiB (E2BIG), and only the first words
  /// are spoken; 4096 characters of UTF-8 stay far below that.
  static let maxCommandLineCharacters = 4096

  /// This program's own path, so the hook runs the same announce that wrote it.
  static func executablePath() -> String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
  }

  /// The hook for `shell`, calling the announce at `announce`.
  static func script(for shell: ShellInit.Shell, announce: String) -> String {
    switch shell {
    case .bash: bash(announce: quotedForPOSIXShell(announce))
    case .zsh: zsh(announce: quotedForPOSIXShell(announce))
    case .fish: fish(announce: quotedForFish(announce))
    }
  }

  /// `text` in single quotes for bash and zsh.
  static func quotedForPOSIXShell(_ text: String) -> String {
    "'" + text.replacingBytes(of: "'", with: "'\\''") + "'"
  }

  /// `text` in single quotes for fish.
  static func quotedForFish(_ text: String) -> String {
    "'"
      + text.replacingBytes(of: "\\", with: "\\\\").replacingBytes(of: "'", with: "\\'")
      + "'"
  }
}
