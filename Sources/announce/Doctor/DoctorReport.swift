import FoundationEssentials

/// `announce doctor --report`: one block of plain lines to paste into a bug report. It
/// holds the versions of announce, speech-dispatcher and espeak-ng, the output module,
/// the system, the sound server and its sink, and each check's finding and sentence;
/// never a command line or the text of an announcement.
struct DoctorReport {
  /// How long each program may take to print its version.
  static let versionBound: Duration = .milliseconds(1500)

  /// The checks' lines, in the order they were made.
  var lines: [DoctorLine]
  /// What the checks came to.
  var outcome: DoctorOutcome
  /// The first line of `program --version`; `nil` when it could not be run in time.
  var version: (_ program: String) -> String?
  /// The system's name, from `/etc/os-release`.
  var system: String?

  /// The block, one line at a time.
  var text: [String] {
    let module = fact("module", of: "daemon") ?? fact("module", of: "speech") ?? "unknown"
    var block = [
      "announce doctor report",
      "announce: \(announceVersion)",
      "speech-dispatcher: \(Self.versionNumber(version("speech-dispatcher")) ?? "unknown")",
      "espeak-ng: \(Self.versionNumber(version("espeak-ng")) ?? "unknown")",
      "output module: \(module)",
      "system: \(system ?? "unknown")",
      "sound: \(sound)",
    ]
    for line in lines { block.append("\(line.check): \(line.finding.rawValue): \(line.sentence)") }
    block.append("outcome: \(outcomeText)")
    return block
  }

  /// The sound server and its sink, as the sound check found them.
  private var sound: String {
    guard let server = fact("server", of: "sound"), server != "unknown" else { return "unknown" }
    var parts = [server]
    if let name = fact("serverName", of: "sound") { parts[0] += " (\(name))" }
    if let sink = fact("sink", of: "sound") { parts.append("default sink \(sink)") }
    if let line = lines.first(where: { $0.check == "sound" }) {
      for (name, value) in line.facts {
        switch (name, value) {
        case ("muted", .flag(let muted)): parts.append(muted ? "muted" : "not muted")
        case ("volume", .number(let volume)): parts.append("volume \(Int(volume))%")
        case ("nullSink", .flag(true)): parts.append("a null sink")
        default: break
        }
      }
    }
    return parts.joined(separator: ", ")
  }

  private var outcomeText: String {
    let status = ExitStatus.of(outcome.result)
    switch outcome {
    case .fine: return "speech works (exit status \(status))"
    case .somethingElseBroken: return "speech works, something else is broken (exit status \(status))"
    case .speechUnavailable: return "speech cannot be heard (exit status \(status))"
    }
  }

  /// The text fact `name` of the first line of `check`.
  private func fact(_ name: String, of check: String) -> String? {
    for line in lines where line.check == check {
      for (key, value) in line.facts where key == name {
        if case .text(let text) = value, !text.isEmpty { return text }
      }
    }
    return nil
  }

  /// The version in a program's first line: `speech-dispatcher 0.11.4` gives `0.11.4`,
  /// `eSpeak NG text-to-speech: 1.51  Data at: …` gives `1.51`.
  static func versionNumber(_ line: String?) -> String? {
    guard let line else { return nil }
    return line.split(separator: " ").first { $0.first?.isNumber == true && $0.contains(".") }.map(
      String.init)
  }

  /// `PRETTY_NAME` of an os-release file's `text`, without its quotes.
  static func prettyName(in text: String) -> String? {
    for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
      var value = line.dropFirst("PRETTY_NAME=".count)
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
        value = value.dropFirst().dropLast()
      }
      return String(value)
    }
    return nil
  }

  /// This system's name, from /etc/os-release, or /usr/lib/os-release where that is missing.
  static func systemName() -> String? {
    for path in ["/etc/os-release", "/usr/lib/os-release"] {
      if let text = try? String(contentsOfFile: path, encoding: .utf8) { return prettyName(in: text) }
    }
    return nil
  }
}
