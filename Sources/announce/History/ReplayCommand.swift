import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce replay`: speaks again the announcements that were missed, oldest first,
/// each with the guarantees of any announcement, and records the new outcomes.
struct ReplayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce replay",
    abstract: "Speak again the announcements that were not heard, oldest first.",
    discussion: """
      Each is spoken as it was first (text, priority, voice, SSML, sound icon), waits up to \
      30 seconds for other speech to end, or ANNOUNCE_TIMEOUT, and its new outcome is \
      recorded, so that one heard now is no longer missed. The exit status is that of \
      announce speaking them. Two replays at once never speak the same announcement.
      """)

  /// The subcommand's name, as the first argument.
  static let name = "replay"

  @Flag(help: "Speak the last announcement again, whatever its outcome.")
  var last = false

  @Option(
    name: .customShort("n"),
    help: ArgumentHelp(
      "Speak at most this many, the newest of those missed.", valueName: "count"))
  var count = 20

  @Flag(help: "Speak the sentence said when there is nothing to replay, as well as print it.")
  var aloud = false

  @Flag(name: .shortAndLong, help: "Print nothing on standard error except usage errors.")
  var quiet = false

  func validate() throws {
    guard count > 0 else {
      throw ValidationError("-n must be a whole number above 0, such as 20, not \(count).")
    }
    guard try HistorySwitch.isOn(environment: Announce.environment) else {
      throw ValidationError(
        "\(HistorySwitch.variable)=off keeps no history, so there is nothing to replay; unset it to replay.")
    }
  }

  func run() async throws {
    let status = await Announce.$environment.withValue(Self.replayEnvironment(Announce.environment)) {
      await replay()
    }
    if status != ExitStatus.success { throw ExitCode(status) }
  }

  private func replay() async -> Int32 {
    let log = OutcomeLog.forUser(environment: Announce.environment)
    let terminal = Terminal(quiet: quiet)
    guard let (history, chosen) = History.claim(in: log, last: last, limit: count) else {
      terminal.error(
        log.problem()
          ?? "The outcome log \(log.path) stayed locked for \(OutcomeLog.lockWait.components.seconds) seconds, so nothing was replayed; try again."
      )
      return ExitStatus.notDelivered
    }
    guard !chosen.isEmpty else {
      let sentence = Self.nothing(in: history, last: last, now: Date().timeIntervalSince1970)
      terminal.standardOutput(sentence)
      if aloud, var command = try? Announce.speaking(sentence, soundIcon: nil) {
        // Said, not recorded: a sentence about the history is no part of it.
        command.output.noHistory = true
        command.detach.isChild = false
        command.output.quiet = quiet
        return ExitStatus.of(await AnnounceRun(command).result())
      }
      return ExitStatus.success
    }
    let waiting = history.toReplay(last: last, isRunning: History.isRunning).count
    if !last, waiting > chosen.count {
      terminal.error(
        "Replaying the newest \(chosen.count) of \(waiting) missed announcements; "
          + "announce replay again speaks the older ones, and announce history --missed lists them.")
    }
    var statuses: [Int32] = []
    for record in chosen {
      let result: RunResult
      do {
        var command = try Announce.replaying(record)
        command.output.quiet = quiet
        result = await HistoryRecorder.$replaying.withValue(record.key) {
          await AnnounceRun(command).result()
        }
      } catch {
        terminal.error(OneLineErrors.sentence(Announce.message(for: error), commandName: "announce replay"))
        statuses.append(Announce.exitCode(for: error).rawValue)
        continue
      }
      // A signal ends the replay: what is left stays missed for the next one.
      if case .interrupted = result { return ExitStatus.of(result) }
      statuses.append(ExitStatus.of(result))
    }
    return Self.combined(statuses)
  }

  /// The status of a replay whose announcements had `statuses`: speech-dispatcher's
  /// trouble first, then usage errors, bad input, and not delivered.
  static func combined(_ statuses: [Int32]) -> Int32 {
    let order = [
      ExitStatus.serviceUnavailable, ExitStatus.usage, ExitStatus.badInput, ExitStatus.notDelivered,
    ]
    return order.first(where: statuses.contains) ?? ExitStatus.success
  }

  /// The one sentence when there is nothing to replay.
  static func nothing(in history: History, last: Bool, now: Double) -> String {
    func ago(_ seconds: Double) -> String { SpokenDuration.text(seconds: max(0, now - seconds)) + " ago" }
    if last || history.outcomes.isEmpty {
      return "Nothing was announced since the history began, so there is nothing to replay."
    }
    if let replay = history.lastReplay { return "Nothing was missed since the last replay, \(ago(replay))." }
    if let first = history.outcomes.first?.seconds {
      return "Nothing was missed since the history began, \(ago(first))."
    }
    return "Nothing was missed."
  }

  /// `environment` without the variables that set how announcements sound, so that a
  /// replay sounds as the announcement was recorded, not as the variables say today.
  static func replayEnvironment(_ environment: [String: String]) -> [String: String] {
    let sound: [any AnySetting] = [
      Settings.priority, Settings.rate, Settings.language, Settings.voice, Settings.outputModule,
    ]
    let variables = sound.compactMap(\.variable)
    return environment.filter { !variables.contains($0.key) }
  }
}

extension Announce {
  /// The command that speaks `record` again the same way: its text, priority, voice,
  /// SSML or not and sound icon; the timeout of the hooks, 30 seconds, unless
  /// `ANNOUNCE_TIMEOUT` gives one. Checked by the same ``validate()`` as a command line's.
  static func replaying(_ record: HistoryRecord) throws -> Announce {
    let announcement = record.announcement
    var command = try Announce.speaking(announcement.text, soundIcon: announcement.soundIcon)
    command.detach.isChild = false
    command.announcerOptions.priority = announcement.priority
    command.announcerOptions.ssml = announcement.isSSML
    let voice = announcement.voice
    command.voice.rate = voice.rate
    command.voice.pitch = voice.pitch
    command.voice.pitchRange = voice.pitchRange
    command.voice.volume = voice.volume
    command.voice.language = voice.language
    command.voice.voice = voice.voiceName
    command.voice.voiceType = voice.voiceType
    command.voice.outputModule = voice.outputModule
    command.voice.punctuation = voice.punctuation
    command.voice.spell = voice.spell
    try command.validate()
    return command
  }
}
