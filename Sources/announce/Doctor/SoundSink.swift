/// The default sink of the sound server, as `pactl` or `wpctl` describes it: where
/// speech-dispatcher's speech plays, and whether a person can hear it there.
struct SoundSink: Sendable, Equatable {
  /// PipeWire or PulseAudio.
  var server: SoundServer
  /// What the server calls itself, such as `PulseAudio (on PipeWire 1.4.2)`.
  var serverName: String
  /// The sink's name, such as `alsa_output.pci-0000_00_1f.3.analog-stereo`.
  var name: String
  /// Whether it is muted; `nil` when the tool did not say.
  var isMuted: Bool?
  /// Its loudest channel, in percent; `nil` when the tool did not say.
  var volumePercent: Int?
  /// Whether it plays to nowhere: PulseAudio's module-null-sink (its "Null Output" and
  /// the "Dummy Output" it makes without a sound card) or PipeWire's null audio sink.
  var isNull = false

  /// Why speech played there cannot be heard, for the start of a sentence; `nil` when it can.
  var silence: String? {
    if isNull { return "a null sink, which plays to nowhere" }
    if isMuted == true { return "muted" }
    if volumePercent == 0 { return "at volume 0" }
    return nil
  }

  /// From `pactl info` and `pactl list sinks`, in the C locale; `nil` when `info` names
  /// no default sink.
  static func fromPactl(info: String, sinks: String) -> SoundSink? {
    let fields = Self.fields(of: info)
    guard let serverName = fields["Server Name"], let name = fields["Default Sink"], !name.isEmpty else {
      return nil
    }
    let version = fields["Server Version"].map { " " + $0 } ?? ""
    var sink = SoundSink(
      server: serverName.contains("PipeWire") ? .pipeWire : .pulseAudio, serverName: serverName + version,
      name: name)
    // Each sink is a block that starts with "Sink #N"; its fields are indented once, its
    // properties twice.
    var inDefault = false
    for line in sinks.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("Sink #") {
        inDefault = false
        continue
      }
      let text = line.drop { $0 == " " || $0 == "\t" }
      if text.hasPrefix("Name: ") { inDefault = text.dropFirst(6) == name[...] }
      guard inDefault else { continue }
      if text.hasPrefix("Mute: ") {
        sink.isMuted = text.dropFirst(6) == "yes"
      } else if text.hasPrefix("Volume: ") {
        sink.volumePercent = Self.loudestPercent(in: text)
      } else if text.hasPrefix("Driver: "), text.contains("module-null-sink") {
        sink.isNull = true
      } else if text.hasPrefix("factory.name = "), text.contains("support.null-audio-sink") {
        sink.isNull = true
      } else if text.hasPrefix("Description: "),
        ["Null Output", "Dummy Output"].contains(String(text.dropFirst(13)))
      {
        sink.isNull = true
      }
    }
    return sink
  }

  /// From `wpctl status`: the sink marked `*` among the Audio section's Sinks, such as
  /// ` │  *   46. Built-in Audio Analog Stereo [vol: 0.40 MUTED]`; `nil` when none is marked.
  static func fromWpctl(status: String) -> SoundSink? {
    var section = ""
    var inSinks = false
    for line in status.split(separator: "\n") {
      let text = line.drop { " │├└─".contains($0) }
      if line.first?.isLetter == true { section = String(line) }
      if text.hasSuffix(":") {
        inSinks = section.hasPrefix("Audio") && text == "Sinks:"
        continue
      }
      guard inSinks, text.hasPrefix("*") else { continue }
      let entry = text.dropFirst().drop { $0 == " " }
      guard let dot = entry.firstIndex(of: ".") else { continue }
      let rest = entry[entry.index(after: dot)...].drop { $0 == " " }
      let bracket = rest.firstRange(of: " [vol:")
      var name = String(bracket.map { rest[..<$0.lowerBound] } ?? rest)
      while name.last == " " { name.removeLast() }
      var sink = SoundSink(server: .pipeWire, serverName: "PipeWire", name: name)
      sink.isNull = ["Null Output", "Dummy Output"].contains(name)
      if let bracket {
        let details = rest[bracket.upperBound...].prefix { $0 != "]" }
        let words = details.split(separator: " ")
        sink.isMuted = words.contains("MUTED")
        if let volume = words.first.flatMap({ Double($0) }) {
          sink.volumePercent = Int((volume * 100).rounded())
        }
      }
      return sink
    }
    return nil
  }

  /// `Key: value` lines, keyed without their indentation.
  private static func fields(of text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstRange(of: ": ") else { continue }
      let key = line[..<colon.lowerBound].drop { $0 == " " || $0 == "\t" }
      fields[String(key)] = String(line[colon.upperBound...])
    }
    return fields
  }

  /// The highest `NN%` in a `Volume:` line, such as
  /// `Volume: front-left: 65536 / 100% / 0.00 dB,   front-right: 0 / 0% / -inf dB`.
  private static func loudestPercent(in line: Substring) -> Int? {
    var loudest: Int?
    for word in line.split(separator: " ") where word.hasSuffix("%") {
      if let percent = Int(word.dropLast()) { loudest = max(loudest ?? 0, percent) }
    }
    return loudest
  }
}
