import Glibc

/// Check 3b: the sound server and its default sink, from `pactl` (PulseAudio, and
/// PipeWire's pipewire-pulse) or else `wpctl` (PipeWire): speech-dispatcher reports a
/// message played to its end into a muted sink, one at volume 0, or a null sink, so
/// only the sink tells whether a person hears it.
struct SoundCheck {
  /// How long each tool may take to answer: both answer a running server in about 20 ms.
  static let answerBound: Duration = .milliseconds(1500)

  /// Runs a tool with these arguments and returns its standard output; `nil` when it is
  /// not installed, failed, or did not answer within its bound.
  var tool: (_ program: String, _ arguments: [String]) -> String?
  /// Whether a program is on `PATH`, to tell a tool that is missing from a sound server
  /// that does not answer it.
  var isInstalled: (_ program: String) -> Bool = SoundCheck.isOnPath

  /// The check, running the tools with a clean environment in the C locale: only what
  /// finds the user's sound server is passed on, so that their output is the same for
  /// everyone, and nothing of the caller's reaches them.
  init(environment: [String: String], bound: @escaping () -> Duration = { SoundCheck.answerBound }) {
    let passed = [
      "PULSE_SERVER", "PULSE_CLIENTCONFIG", "PULSE_COOKIE", "XDG_RUNTIME_DIR", "PIPEWIRE_REMOTE",
    ].compactMap { name in
      environment[name].map { "\(name)=\($0)" }
    }
    tool = { program, arguments in
      ChildOutput.read(program, arguments, within: bound(), environment: ["LC_ALL=C"] + passed)
    }
  }

  init(
    tool: @escaping (_ program: String, _ arguments: [String]) -> String?,
    isInstalled: @escaping (_ program: String) -> Bool = { _ in true }
  ) {
    self.tool = tool
    self.isInstalled = isInstalled
  }

  /// Whether `program` is an executable file in a directory of `PATH`.
  static func isOnPath(_ program: String) -> Bool {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
  }

  /// The sink, or `nil` when neither tool answered.
  func sink() -> SoundSink? {
    if let info = tool("pactl", ["info"]), let sinks = tool("pactl", ["list", "sinks"]),
      let sink = SoundSink.fromPactl(info: info, sinks: sinks)
    {
      return sink
    }
    return tool("wpctl", ["status"]).flatMap(SoundSink.fromWpctl)
  }

  func run() -> DoctorLine {
    guard let sink = sink() else {
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
