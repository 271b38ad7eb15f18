import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce replay`: speaks again the announcements that were missed, oldest first,
/// each with the guarantees of any announcement, and records the new outcomes.
struct ReplayCommand: DeliveringCommand {
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
      throw ValidationError(
        localized(
          "-n must be a whole number above 0, such as {example}, not {count}.",
          ["example": "20", "count": String(count)]))
    }
  }

  /// Replays with the process's signals, which ``Main`` armed.
  func run(signals: ProcessSignals) async throws -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    guard try HistorySwitch.isOn(environment: environment) else {
      throw ValidationError(
        localized(
          "{variable}=off keeps no history, so there is nothing to replay; unset it to replay.",
          ["variable": HistorySwitch.variable]))
    }
    return ExitStatus.of(await replay(environment: environment, signals: signals))
  }

  /// Speaks the chosen announcements again, one run each, through `service`, and
  /// returns their results. A signal ends the replay: the announcement being spoken is
  /// cancelled, and those not yet spoken stay missed for the next replay. Each
  /// announcement is a phase of the process's one ``ProcessSignals``; a signal between
  /// two is kept for the next, which it ends before anything is said.
  func replay(
    environment: [String: String], service: any SpeechService = SpeechdService(),
    signals: ProcessSignals = .unarmed
  ) async -> [RunResult] {
    let log = OutcomeLog.forUser(environment: environment)
    let terminal = Terminal(quiet: quiet)
    if let problem = log.readProblem(for: .replay) {
      terminal.error(problem)
      return [.failed(.notDelivered(problem))]
    }
    let (last, count) = (self.last, self.count)
    let claimed = await OutcomeLog.blocking { History.claim(in: log, last: last, limit: count) }
    let history: History
    let chosen: [HistoryRecord]
    switch claimed {
    case .success(let value): (history, chosen) = value
    case .failure(let failure):
      let sentence = Self.unclaimed(failure, log: log)
      terminal.error(sentence)
      return [.failed(.notDelivered(sentence))]
    }
    let sounding = Self.replayEnvironment(environment)
    guard !chosen.isEmpty else {
      let now = Date().timeIntervalSince1970
      terminal.standardOutput(Self.nothing(in: history, last: last, now: now, in: .printed))
      let spoken = SpokenLanguage(environment: sounding)
      if aloud,
        var request = try? spoken.applied(
          to: AnnounceRequest.hook(
            speaking: Self.nothing(in: history, last: last, now: now, in: spoken.wording), soundIcon: nil,
            environment: sounding))
      {
        // Said, not recorded: a sentence about the history is no part of it.
        request.outcomes = AnnounceRequest.Outcomes(quiet: quiet)
        return [await AnnounceRun(request, service: service, signals: signals).result()]
      }
      return []
    }
    let waiting = history.toReplay(last: last, isRunning: History.isRunning).count
    if !last, waiting > chosen.count {
      terminal.error(
        localized(
          "Replaying the newest {count} of {total} missed announcements; announce replay again speaks the older ones, and announce history --missed lists them."
        ).replacingBytes(of: "{count}", with: String(chosen.count)).replacingBytes(
          of: "{total}", with: String(waiting)))
    }
    var results: [RunResult] = []
    for record in chosen {
      // A signal between two announcements ends the replay too.
      if let signal = signals.received {
        results.append(.interrupted(signal))
        break
      }
      let result: RunResult
      do {
        var request = try AnnounceRequest.replaying(record, environment: sounding)
        request.outcomes.quiet = quiet
        result = await AnnounceRun(request, service: service, signals: signals).result()
      } catch {
        let failure = RunFailure(readingSettings: error)
        terminal.error(OneLineErrors.sentence(failure.sentence, commandName: "announce replay"))
        results.append(.failed(failure))
        continue
      }
      results.append(result)
      // A signal ends the replay: what is left stays missed for the next one.
      if case .interrupted = result { break }
    }
    return results
  }

  /// The one sentence when the replay could not claim what it would speak.
  static func unclaimed(_ failure: History.ClaimFailure, log: OutcomeLog) -> String {
    switch failure {
    case .unread(let code):
      return localized(
        "The outcome log {path} could not be read to its end ({reason}), so replay could not choose what it would speak, and spoke nothing; check the disk it is on, then try again.",
        ["path": log.path, "reason": SystemReason.printed(code)])
    case .unwritten(let failure): return unwritten(failure, log: log)
    }
  }

  /// The one sentence when the replay's claim could not be written.
  private static func unwritten(_ failure: OutcomeLog.WriteFailure, log: OutcomeLog) -> String {
    switch failure {
    case .busy:
      return localized(
        "The outcome log {path} stayed locked for {seconds} seconds, so nothing was replayed; try again, or find the process that holds {lock} with fuser.",
        ["path": log.path, "seconds": String(log.lockTimeout.components.seconds), "lock": log.lockPath])
    case .system, .notOwn:
      // The writer's sentences end their cause with one of two consequences, word for
      // word in every catalog (CatalogTests holds them to it); replay's takes its place.
      let sentence = log.sentence(for: failure)
      let unclaimed = "so replay could not claim what it would speak, and spoke nothing"
      let english = EnglishOriginals.english(of: sentence)
        .replacingBytes(of: "so an outcome was not logged", with: unclaimed)
        .replacingBytes(of: "so outcomes are not logged", with: unclaimed)
      // TRANSLATORS: takes the place of "so an outcome was not logged" in the outcome log's sentences.
      let printedUnclaimed = localized("so replay could not claim what it would speak, and spoke nothing")
      // TRANSLATORS: must be word for word the same as in the outcome log's sentences that have it.
      let oneNotLogged = localized("so an outcome was not logged")
      // TRANSLATORS: must be word for word the same as in the outcome log's sentences that have it.
      let noneLogged = localized("so outcomes are not logged")
      let printed = sentence.replacingBytes(of: oneNotLogged, with: printedUnclaimed)
        .replacingBytes(of: noneLogged, with: printedUnclaimed)
      EnglishOriginals.remember(printed, english: english)
      return printed
    }
  }

  /// The one sentence when there is nothing to replay.
  static func nothing(
    in history: History, last: Bool, now: Double, in wording: Wording = .english
  ) -> String {
    func ago(_ message: String, _ seconds: Double) -> String {
      wording.localized(message)
        .replacingBytes(
          of: "{duration}", with: SpokenDuration.text(seconds: max(0, now - seconds), in: wording))
    }
    if last, history.outcomes.contains(where: { $0.announcementKey != nil }) {
      return wording.localized(
        "The last announcement is being replayed by another announce replay already, so it is not spoken twice."
      )
    }
    if last || history.outcomes.isEmpty {
      return wording.localized(
        "Nothing was announced since the history began, so there is nothing to replay.")
    }
    if let replay = history.lastReplay {
      return ago(Wording.marked("Nothing was missed since the last replay, {duration} ago."), replay)
    }
    if let first = history.outcomes.first?.seconds {
      return ago(Wording.marked("Nothing was missed since the history began, {duration} ago."), first)
    }
    return wording.localized("Nothing was missed.")
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

extension AnnounceRequest {
  /// The request that speaks `record` again the same way: its text and every setting
  /// the record holds (see ``HistoryRecord/announcement``); the timeout of the hooks,
  /// 30 seconds, unless `ANNOUNCE_TIMEOUT` gives one. Its outcomes are recorded as
  /// replays of the record.
  static func replaying(_ record: HistoryRecord, environment: [String: String]) throws -> AnnounceRequest {
    var request = try hook(speaking: record.text ?? "", soundIcon: nil, environment: environment)
    var defaults = record.announcement
    defaults.text = ""
    defaults.retryTimeout = request.defaults.retryTimeout
    request.defaults = defaults
    request.outcomes.unattended = false
    request.outcomes.replays = record.key
    return request
  }
}
