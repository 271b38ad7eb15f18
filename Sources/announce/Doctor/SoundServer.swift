import FoundationEssentials
import Glibc

/// The sound server that plays this user's speech, found from what is running:
/// speech-dispatcher's own audio setting cannot be read over its protocol.
enum SoundServer: String, Sendable, Equatable {
  case pipeWire = "PipeWire"
  case pulseAudio = "PulseAudio"
  /// Neither runs as this user.
  case none

  /// Which one runs among `programs`, the names of this user's processes: PipeWire
  /// first, since pipewire-pulse also answers PulseAudio's clients.
  static func running(among programs: some Sequence<String>) -> SoundServer {
    let names = Set(programs)
    if names.contains("pipewire-pulse") || names.contains("pipewire") { return .pipeWire }
    if names.contains("pulseaudio") { return .pulseAudio }
    return .none
  }

  /// The one running now, from the names of this user's processes in /proc.
  static func runningNow() -> SoundServer {
    running(among: ownProgramNames())
  }

  /// The fix for speech whose audio goes nowhere, for the end of a sentence.
  var fix: String {
    switch self {
    case .pipeWire:
      Wording.marked(
        "check PipeWire, which plays the sound (systemctl --user restart pipewire pipewire-pulse), then restart speech-dispatcher"
      )
    case .pulseAudio:
      Wording.marked(
        "check PulseAudio, which plays the sound (pactl info must answer; pulseaudio -k restarts it), then restart speech-dispatcher"
      )
    case .none:
      Wording.marked(
        "no sound server runs for you, neither PipeWire nor PulseAudio; start one, then restart speech-dispatcher"
      )
    }
  }

  /// The program names (`/proc/PID/comm`) of the processes this user runs.
  private static func ownProgramNames() -> [String] {
    guard let directory = opendir("/proc") else { return [] }
    defer { closedir(directory) }
    let user = getuid()
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name.first?.isNumber == true else { continue }
      var status = stat()
      guard stat("/proc/" + name, &status) == 0, status.st_uid == user,
        let comm = try? String(contentsOfFile: "/proc/\(name)/comm", encoding: .utf8)
      else { continue }
      names.append(comm.trimmingWhiteSpace)
    }
    return names
  }
}
