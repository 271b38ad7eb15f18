import Glibc

/// Check 3b: the sound server and its default sink, from `pactl` (PulseAudio, and
/// PipeWire's pipewire-pulse) or else `wpctl` (PipeWire): speech-dispatcher reports a
/// message played to its end into a muted sink, one at volume 0, or a null sink, so
/// only the sink tells whether a person hears it.
struct SoundCheck {
  /// How long each tool may take to answer: both answer a running server in about 20 ms.
  static let answerBound: Duration = .milliseconds(1500)

  /// Runs a tool with these arguments within the bound it is given, and says what came
  /// of it: its standard output, a failure (not installed, or no server to ask), or no
  /// end within the bound.
  var tool: (_ program: String, _ arguments: [String], _ bound: Duration) -> ChildOutput.Answer
  /// The bound each tool is given: what is left of doctor's deadline, at most ``answerBound``.
  var bound: () -> Duration = { SoundCheck.answerBound }
  /// Whether a program is on `PATH`, to tell a tool that is missing from a sound server
  /// that does not answer it.
  var isInstalled: (_ program: String) -> Bool = SoundCheck.isOnPath

  /// The check, running the tools with a clean environment in the C locale: only what
  /// finds the user's sound server is passed on, so that their output is the same for
  /// everyone, and nothing of the caller's reaches them.
  init(environment: [String: String], bound: @escaping () -> Duration = { SoundCheck.answerBound }) {
    let passed = Self.toolEnvironment(from: environment)
    tool = { program, arguments, bound in
      ChildOutput.run(program, arguments, within: bound, environment: passed)
    }
    self.bound = bound
  }

  /// The whole environment of the sound tools: the C locale, and the variables that find
  /// the user's sound server and its cookie. HOME and XDG_CONFIG_HOME are among them:
  /// without them `pactl` looks for the cookie, and writes a new one, in the home of the
  /// user's passwd entry, whatever HOME says (the clean room found one in /root).
  static func toolEnvironment(from environment: [String: String]) -> [String] {
    let names = [
      "PULSE_SERVER", "PULSE_CLIENTCONFIG", "PULSE_COOKIE", "XDG_RUNTIME_DIR", "PIPEWIRE_REMOTE", "HOME",
      "XDG_CONFIG_HOME",
    ]
    return ["LC_ALL=C"] + names.compactMap { name in environment[name].map { "\(name)=\($0)" } }
  }

  /// The check with the tools' answers written out: `nil` for a tool that failed.
  init(
    tool: @escaping (_ program: String, _ arguments: [String]) -> String?,
    isInstalled: @escaping (_ program: String) -> Bool = { _ in true }
  ) {
    self.init(answer: { tool($0, $1).map(ChildOutput.Answer.output) ?? .failed }, isInstalled: isInstalled)
  }

  /// The check with the tools' answers written out, a tool that does not end among them.
  init(
    answer: @escaping (_ program: String, _ arguments: [String]) -> ChildOutput.Answer,
    isInstalled: @escaping (_ program: String) -> Bool = { _ in true }
  ) {
    self.tool = { program, arguments, _ in answer(program, arguments) }
    self.isInstalled = isInstalled
  }

  /// Whether `program` is an executable file in a directory of `PATH`.
  static func isOnPath(_ program: String) -> Bool {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
  }

  /// What the tools said of the sound server.
  enum Found: Equatable {
    /// The default sink.
    case sink(SoundSink)
    /// A tool did not end within `bound`, and none answered: the server it asks is stuck,
    /// and plays nothing either.
    case stuck(tool: String, bound: Duration)
    /// No tool answered, each failing at once: none is installed, or no server runs.
    case unknown
  }

  /// The sink, from pactl, or else wpctl.
  func found() -> Found {
    var stuck: Found?
    func ask(_ program: String, _ arguments: [String]) -> String? {
      let given = bound()
      switch tool(program, arguments, given) {
      case .output(let text): return text
      case .failed: return nil
      case .timedOut:
        if stuck == nil { stuck = .stuck(tool: program, bound: given) }
        return nil
      }
    }
    if let info = ask("pactl", ["info"]), let sinks = ask("pactl", ["list", "sinks"]),
      let sink = SoundSink.fromPactl(info: info, sinks: sinks)
    {
      return .sink(sink)
    }
    if let sink = ask("wpctl", ["status"]).flatMap(SoundSink.fromWpctl) { return .sink(sink) }
    return stuck ?? .unknown
  }

  /// The sink, or `nil` when no tool answered.
  func sink() -> SoundSink? {
    guard case .sink(let sink) = found() else { return nil }
    return sink
  }

  func run() -> DoctorLine {
    let sink: SoundSink
    switch found() {
    case .sink(let answered): sink = answered
    case .stuck(let tool, let bound):
      // A PulseAudio or PipeWire that does not answer its own tool does not play the
      // speech-dispatcher's audio either, whatever the daemon reported.
      return DoctorLine(
        check: "sound", finding: .speechUnavailable,
        said: localized(
          "The sound server did not answer {tool} within {duration}, so it is stuck and nobody hears speech; restart it with systemctl --user restart pipewire pipewire-pulse, or pulseaudio -k for PulseAudio.",
          ["tool": tool, "duration": DoctorLine.printedSeconds(bound)]),
        facts: [("server", .text("unknown")), ("sink", .text("unknown")), ("stuckTool", .text(tool))])
    case .unknown:
      let said =
        isInstalled("pactl") || isInstalled("wpctl")
        ? localized(
          "The sound server and its default sink are unknown, because no sound server answered pactl or wpctl, so none runs for you or it is stuck; start PipeWire or PulseAudio if speech should play on this machine."
        )
        : localized(
          "The sound server and its default sink are unknown, because neither pactl nor wpctl is installed; install pulseaudio-utils to have them checked."
        )
      return DoctorLine(
        check: "sound", finding: .notInUse, said: said,
        facts: [("server", .text("unknown")), ("sink", .text("unknown"))])
    }
    var facts: [(String, DoctorFact)] = [
      ("server", .text(sink.server.rawValue)), ("serverName", .text(sink.serverName)),
      ("sink", .text(sink.name)), ("nullSink", .flag(sink.isNull)),
    ]
    if let muted = sink.isMuted { facts.append(("muted", .flag(muted))) }
    if let volume = sink.volumePercent { facts.append(("volume", .number(Double(volume)))) }
    let usesPactl = sink.serverName != "PipeWire"
    let named: KeyValuePairs<String, String> = ["server": sink.server.rawValue, "sink": sink.name]
    if sink.isNull {
      return DoctorLine(
        check: "sound", finding: .speechUnavailable,
        said: usesPactl
          ? localized(
            "The default sink of {server}, {sink}, is a null sink, which plays to nowhere, so nobody hears speech; choose a real output, such as a sound card from pactl list short sinks, with pactl set-default-sink NAME.",
            named)
          : localized(
            "The default sink of {server}, {sink}, is a null sink, which plays to nowhere, so nobody hears speech; choose a real output, such as a sound card from wpctl status, with wpctl set-default ID.",
            named),
        facts: facts)
    }
    if sink.isMuted == true {
      return DoctorLine(
        check: "sound", finding: .speechUnavailable,
        said: localized(
          "The default sink of {server}, {sink}, is muted, so nobody hears speech; unmute it with {command}.",
          [
            "server": sink.server.rawValue, "sink": sink.name,
            "command": usesPactl
              ? "pactl set-sink-mute @DEFAULT_SINK@ 0" : "wpctl set-mute @DEFAULT_AUDIO_SINK@ 0",
          ]),
        facts: facts)
    }
    if sink.volumePercent == 0 {
      return DoctorLine(
        check: "sound", finding: .speechUnavailable,
        said: localized(
          "The default sink of {server}, {sink}, is at volume 0, so nobody hears speech; raise it with {command}.",
          [
            "server": sink.server.rawValue, "sink": sink.name,
            "command": usesPactl
              ? "pactl set-sink-volume @DEFAULT_SINK@ 50%" : "wpctl set-volume @DEFAULT_AUDIO_SINK@ 0.5",
          ]),
        facts: facts)
    }
    let values: KeyValuePairs = [
      "server": sink.server.rawValue, "sink": sink.name, "volume": sink.volumePercent.map(String.init) ?? "",
    ]
    let said =
      switch (sink.volumePercent != nil, sink.isMuted == false) {
      case (true, true):
        localized(
          "{server} plays the sound, to its default sink {sink} at {volume}% volume, not muted.", values)
      case (true, false):
        localized("{server} plays the sound, to its default sink {sink} at {volume}% volume.", values)
      case (false, true):
        localized("{server} plays the sound, to its default sink {sink}, not muted.", values)
      case (false, false): localized("{server} plays the sound, to its default sink {sink}.", values)
      }
    return DoctorLine(check: "sound", finding: .fine, said: said, facts: facts)
  }
}
