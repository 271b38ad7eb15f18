import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce tmux-alert`: what the hooks of `announce init tmux` run, in the background,
/// when a window the user is not looking at rings, shows activity or falls silent.
///
/// tmux has already decided that nobody looks at the window; this process holds back a
/// repeat within the interval (``AlertRateLimit``) and speaks the sentence with
/// ``HookSpeech``, with its outcome in the ``OutcomeLog``.
struct TmuxAlert: DeliveringCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce tmux-alert",
    abstract: "Announce a tmux alert, as the hooks of announce init tmux do.",
    discussion: """
      Says, for example, "Bell in window 3, build." At most one announcement of each kind \
      per window is made in --interval seconds. The announcement waits up to 30 seconds for \
      other speech to end, or ANNOUNCE_TIMEOUT. The outcome goes to the log of --detach.
      """)

  /// The subcommand's name, as the first argument.
  static let name = "tmux-alert"

  @Argument(help: "The alert: bell, activity or silence.")
  var kind: TmuxAlertKind

  @Option(help: ArgumentHelp("The tmux server's process id.", valueName: "pid"))
  var server: String

  @Option(help: ArgumentHelp("The window's id, such as @3.", valueName: "id"))
  var window: String

  @Option(help: ArgumentHelp("The window's number in its session.", valueName: "number"))
  var index: Int

  @Option(help: ArgumentHelp("The window's session.", valueName: "name"))
  var session: String = ""

  @Option(help: ArgumentHelp("How many sessions the server has.", valueName: "count"))
  var sessions: Int = 1

  @Option(
    help: ArgumentHelp(
      "Seconds in which the same alert of the same window is said once; 10 when empty or not a duration.",
      valueName: "seconds"))
  var interval: String = ""

  @Argument(help: "The window's name.")
  var windowName: String = ""

  /// The interval when `@announce-interval` is unset or not a duration.
  static let defaultInterval = 10.0

  func run(signals: ProcessSignals) async throws -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    let seconds = DurationText.seconds(in: interval)
    let key = [server, window, kind.rawValue].map(Self.keyPart).joined(separator: "/")
    // With no place for the file, an alert too many beats a lost one.
    if let limit = AlertRateLimit.forUser(environment: environment),
      !limit.admits(key, interval: seconds ?? Self.defaultInterval, clock: { Date().timeIntervalSince1970 })
    {
      return ExitStatus.success
    }
    let sentence = TmuxAlertSentence.text(
      kind: kind, index: index, windowName: windowName,
      session: sessions > 1 ? session : nil, in: SpokenLanguage(environment: environment).wording)
    return await HookSpeech.speak(sentence, hook: "The tmux hook", environment: environment, signals: signals)
  }

  /// `text` with nothing but letters, digits and `@`, so that a key is one field.
  static func keyPart(_ text: String) -> String {
    String(
      text.unicodeScalars.filter {
        $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "@")
      }
      .map(Character.init))
  }
}

/// A tmux alert that `announce init tmux` speaks.
enum TmuxAlertKind: String, ExpressibleByArgument, CaseIterable {
  case bell, activity, silence
}

/// The sentence of a tmux alert: "Bell in window 3, build."
enum TmuxAlertSentence {
  /// The most characters of a window name that are spoken. Names that programs set
  /// through the terminal can be whole paths; a name is for telling windows apart.
  static let maxNameCharacters = 60

  /// The sentence for `kind` in window `index` named `windowName`, naming `session` when
  /// it is given (the server has several).
  static func text(
    kind: TmuxAlertKind, index: Int, windowName: String, session: String?, in wording: Wording = .english
  ) -> String {
    let session = session.map(spoken).flatMap { $0.isEmpty ? nil : $0 }
    var text = TmuxAlertWords(wording: wording).place(of: kind, index: index, session: session)
    let name = spoken(windowName)
    if !name.isEmpty { text += ", " + name }
    if let last = text.last, ".!?".contains(last) { return text }
    return text + "."
  }

  /// `name` as it is spoken: runs of white space and control characters become one
  /// space, and only the first ``maxNameCharacters`` are kept, cut at a space when there is one.
  static func spoken(_ name: String) -> String {
    let words = name.split {
      $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }.compactMap { word -> Substring? in
      // A combining mark or joiner that followed a control character belongs to no letter:
      // after the space it would join the space, which the next reading of the name takes
      // for white space, so the name would change each time it is spoken.
      let kept = word.drop { (" " + String($0)).count == 1 }
      return kept.isEmpty ? nil : kept
    }
    var text = words.joined(separator: " ")
    if text.count > maxNameCharacters {
      let cut = text.prefix(maxNameCharacters)
      text = String(cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut)
    }
    return text
  }
}
