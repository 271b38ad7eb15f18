import Foundation
import Glibc
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// Doctor's sound check, with the answers of pactl and wpctl written out: a sink that
/// plays to nobody means speech cannot be heard, whatever speech-dispatcher reported.
@Suite struct DoctorSoundCheckTests {
  static let pulseInfo = """
    Server String: \(testRoot)/run/user/1000/pulse/native
    Server Name: pulseaudio
    Server Version: 16.1
    Default Sink: alsa_output.pci-0000_00_1f.3.analog-stereo
    Default Source: alsa_input.pci-0000_00_1f.3.analog-stereo
    """

  /// `pactl list sinks` with a null sink first and the sound card after it.
  static func sinks(cardMuted: Bool = false, cardPercent: Int = 65) -> String {
    """
    Sink #0
    \tState: SUSPENDED
    \tName: null
    \tDescription: Null Output
    \tDriver: module-null-sink.c
    \tMute: no
    \tVolume: front-left: 65536 / 100% / 0.00 dB,   front-right: 65536 / 100% / 0.00 dB
    \tBase Volume: 65536 / 100% / 0.00 dB
    Sink #1
    \tState: RUNNING
    \tName: alsa_output.pci-0000_00_1f.3.analog-stereo
    \tDescription: Built-in Audio Analog Stereo
    \tDriver: module-alsa-card.c
    \tMute: \(cardMuted ? "yes" : "no")
    \tVolume: front-left: 42000 / \(cardPercent)% / -11.00 dB,   front-right: 42000 / \(cardPercent)% / -11.00 dB
    \t        balance 0.00
    \tBase Volume: 65536 / 100% / 0.00 dB
    \tProperties:
    \t\tdevice.description = "Built-in Audio Analog Stereo"
    """
  }

  static func check(info: String = pulseInfo, sinks: String? = sinks(), wpctl: String? = nil) -> SoundCheck {
    SoundCheck { program, arguments in
      switch (program, arguments) {
      case ("pactl", ["info"]): sinks == nil ? nil : info
      case ("pactl", ["list", "sinks"]): sinks
      case ("wpctl", ["status"]): wpctl
      default: nil
      }
    }
  }

  @Test func aSoundCardThatPlaysIsFineAndNamed() {
    let line = Self.check().run()
    #expect(line.finding == .fine)
    #expect(
      line.sentence
        == "PulseAudio plays the sound, to its default sink alsa_output.pci-0000_00_1f.3.analog-stereo at 65% volume, not muted."
    )
    #expect(line.facts.contains { $0.0 == "serverName" && $0.1 == .text("pulseaudio 16.1") })
  }

  @Test func aMutedSinkMeansSpeechCannotBeHeardAndSaysHowToUnmute() {
    let line = Self.check(sinks: Self.sinks(cardMuted: true)).run()
    #expect(line.finding == .speechUnavailable)
    #expect(line.sentence.contains("is muted"))
    #expect(line.sentence.hasSuffix("unmute it with pactl set-sink-mute @DEFAULT_SINK@ 0."))
    #expect(DoctorOutcome.of([.fine, line.finding]) == .speechUnavailable)
  }

  @Test func volumeZeroMeansSpeechCannotBeHeard() {
    let line = Self.check(sinks: Self.sinks(cardPercent: 0)).run()
    #expect(line.finding == .speechUnavailable)
    #expect(line.sentence.contains("is at volume 0"))
    #expect(line.sentence.contains("pactl set-sink-volume @DEFAULT_SINK@"))
  }

  @Test func aNullSinkMeansSpeechCannotBeHeard() {
    let info = Self.pulseInfo.replacingOccurrences(
      of: "Default Sink: alsa_output.pci-0000_00_1f.3.analog-stereo", with: "Default Sink: null")
    let line = Self.check(info: info).run()
    #expect(line.finding == .speechUnavailable)
    #expect(line.sentence.contains("is a null sink, which plays to nowhere"))
    #expect(line.sentence.contains("choose a real output"))
  }

  @Test func pipeWiresNullAudioSinkThroughPipewirePulseIsANullSink() throws {
    let info = """
      Server Name: PulseAudio (on PipeWire 1.4.2)
      Server Version: 15.0.0
      Default Sink: sink
      """
    let sinks = """
      Sink #40
      \tName: sink
      \tDescription: Some sink
      \tDriver: PipeWire
      \tMute: no
      \tVolume: front-left: 65536 / 100% / 0.00 dB
      \tProperties:
      \t\tfactory.name = "support.null-audio-sink"
      """
    let sink = try #require(SoundSink.fromPactl(info: info, sinks: sinks))
    #expect(sink.server == .pipeWire)
    #expect(sink.isNull)
  }

  @Test func withoutPactlWpctlNamesPipeWireAndItsDefaultSink() {
    let status = """
      PipeWire 'pipewire-0' [1.4.2, me@here, cookie:1]
       └─ Clients:
              33. WirePlumber                         [1.4.2, me@here, pid:1]

      Audio
       ├─ Devices:
       │      42. Built-in Audio                      [alsa]
       │
       ├─ Sinks:
       │      45. Null Output                         [vol: 1.00]
       │  *   46. Built-in Audio Analog Stereo        [vol: 0.40 MUTED]
       │
       ├─ Sources:
       │  *   47. Built-in Audio Analog Stereo        [vol: 1.00]

      Video
       ├─ Sinks:
      """
    let line = Self.check(sinks: nil, wpctl: status).run()
    #expect(line.finding == .speechUnavailable)
    #expect(line.sentence.contains("PipeWire, Built-in Audio Analog Stereo, is muted"), "\(line.sentence)")
    #expect(line.sentence.contains("wpctl set-mute @DEFAULT_AUDIO_SINK@ 0"))
    #expect(line.facts.contains { $0.0 == "volume" && $0.1 == .number(40) })
  }

  @Test func withNeitherToolTheServerIsUnknownAndNothingFails() {
    let line = Self.check(sinks: nil).run()
    #expect(line.finding == .notInUse)
    #expect(
      line.sentence.contains("unknown, because no sound server answered pactl or wpctl"), "\(line.sentence)")
    #expect(line.facts.contains { $0.0 == "server" && $0.1 == .text("unknown") })
    let missing = SoundCheck(tool: { _, _ in nil }, isInstalled: { _ in false }).run()
    #expect(missing.finding == .notInUse)
    #expect(missing.sentence.contains("neither pactl nor wpctl is installed; install pulseaudio-utils"))
  }

  @Test func aToolThatNeverEndsIsKilledWithinItsBound() {
    // sleep would print nothing and succeed after 10 s; nil is the bound's answer.
    let output = ChildOutput.read(
      "sh", ["-c", "sleep 10; echo late"], within: .milliseconds(200), environment: ["LC_ALL=C"])
    #expect(output == nil)
    #expect(
      ChildOutput.read("sh", ["-c", "echo $LC_ALL $HOME"], within: .seconds(5), environment: ["LC_ALL=C"])
        == "C\n")
  }

  /// A `pactl` that printed a line, closed its output and hung kept doctor waiting for
  /// as long as it slept (32 s in the review), since the bound covered reading, not the
  /// wait for its exit; now it is killed at the bound, and nothing of it is left.
  @Test func aToolThatClosesItsOutputButDoesNotEndIsKilledAtTheBound() throws {
    let folder = NSTemporaryDirectory() + "announce-stuck-tool-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let tool = folder + "/pactl"
    try """
    #!/bin/sh
    echo "Server Name: pulseaudio"
    echo $$ > "\(folder)/pid"
    exec >&-
    exec sleep 30
    """.write(toFile: tool, atomically: true, encoding: .utf8)
    #expect(chmod(tool, 0o755) == 0)
    // A bound of 3 s, far from the tool's 30: with 500 ms, a loaded machine killed the
    // shell before it had written its pid, so the test's premise was never reached.
    let start = ContinuousClock.now
    let output = ChildOutput.read(tool, ["info"], within: .seconds(3), environment: ["LC_ALL=C"])
    let took = ContinuousClock.now - start
    #expect(output == nil, "a tool that did not end within its bound gave \(output ?? "")")
    #expect(took < .seconds(10), "took \(took)")
    let pid = try #require(
      Int32(
        try String(contentsOfFile: folder + "/pid", encoding: .utf8).trimmingCharacters(
          in: .whitespacesAndNewlines)))
    #expect(kill(pid, 0) == -1 && errno == ESRCH, "the tool's process \(pid) was left running")
  }

  /// The same tool, as an answer: it did not end, which is not the same as failing.
  @Test func aToolThatDoesNotEndWithinItsBoundIsTimedOutAndOneThatFailsIsFailed() {
    #expect(ChildOutput.run("sh", ["-c", "exec sleep 30"], within: .milliseconds(200)) == .timedOut)
    #expect(ChildOutput.run("sh", ["-c", "echo half; exit 3"], within: .seconds(5)) == .failed)
    #expect(ChildOutput.run("sh", ["-c", "echo whole"], within: .seconds(5)) == .output("whole\n"))
  }

  /// A sound server that does not answer its own tool plays nobody's speech: doctor exits
  /// 69 and says which tool it asked and for how long, where it took the server for
  /// unknown (status 0) before. One that fails at once is still unknown, for information.
  @Test func aSoundServerThatDoesNotAnswerItsToolMeansSpeechCannotBeHeard() {
    let stuck = SoundCheck(answer: { program, _ in program == "pactl" ? .timedOut : .failed }).run()
    #expect(stuck.finding == .speechUnavailable)
    #expect(
      stuck.sentence.hasPrefix("The sound server did not answer pactl within 1.5 seconds, so it is stuck"),
      "\(stuck.sentence)")
    #expect(stuck.facts.contains { $0.0 == "stuckTool" && $0.1 == .text("pactl") })
    #expect(DoctorOutcome.of([.fine, stuck.finding]) == .speechUnavailable)
    // PipeWire's own tool answers where pipewire-pulse is stuck: the sink is known.
    let wpctlAnswers = SoundCheck(answer: { program, _ in
      program == "pactl" ? .timedOut : .output("Audio\n ├─ Sinks:\n │  *   46. Speakers [vol: 0.40]\n")
    }).run()
    #expect(wpctlAnswers.finding == .fine, "\(wpctlAnswers.sentence)")
    let failing = SoundCheck(answer: { _, _ in .failed }).run()
    #expect(failing.finding == .notInUse)
  }

  /// The sound tools get the caller's HOME and XDG_CONFIG_HOME, where PulseAudio keeps the
  /// cookie: without them `pactl` used, and wrote, the cookie of the passwd entry's home.
  /// Nothing else of the caller's reaches them.
  @Test func theSoundToolsGetTheHomeThatHoldsTheCookieAndNothingElse() {
    let home = UnusedPath.folder()  // only its name is passed on
    let passed = SoundCheck.toolEnvironment(from: [
      "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "PULSE_SERVER": "unix:" + home + "/pulse",
      "LANG": "de_DE.UTF-8", "ANNOUNCE_RATE": "10",
    ])
    #expect(
      Set(passed) == [
        "LC_ALL=C", "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config",
        "PULSE_SERVER=unix:" + home + "/pulse",
      ])
  }
}
