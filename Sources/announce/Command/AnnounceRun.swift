import AnnouncerCore
import FoundationEssentials
import Glibc

/// One run of `announce`: it carries out an ``AnnounceRequest`` and returns one
/// ``RunResult``, whichever way the run ends: the input running out, a failure, or a
/// ``HandledSignal``.
struct AnnounceRun {
  /// What to do.
  var request: AnnounceRequest
  /// Where the sentences go.
  let terminal: Terminal
  /// Where every outcome is recorded, for `announce history` and `replay`; `nil` when turned off.
  let recorder: HistoryRecorder?
  /// How the announcer reaches the speech service.
  let service: any SpeechService
  /// The process's signals, which end the run.
  let signals: ProcessSignals
  /// How the run reaches the braille display, when braille is on.
  let brailleService: any BrailleService
  /// How the run reaches the desktop's notification server, when notifications are on.
  let notificationService: any NotificationService

  init(
    _ request: AnnounceRequest, service: any SpeechService = SpeechdService(),
    signals: ProcessSignals = .unarmed, braille: any BrailleService = BrlttyService(),
    notifications: any NotificationService = SessionBusNotifications()
  ) {
    self.request = request
    self.service = service
    self.brailleService = braille
    self.notificationService = notifications
    self.signals = signals
    let outcomes = request.outcomes
    let terminal = Terminal(
      quiet: outcomes.quiet, log: outcomes.unattended ? outcomes.history : nil,
      failurePreamble: outcomes.failurePreamble)
    self.terminal = terminal
    recorder = outcomes.history.map {
      HistoryRecorder(
        log: $0, replays: outcomes.replays, plan: request.plan,
        terminal: outcomes.unattended ? nil : terminal,
        keepsRejected: request.reading.format == .jsonDocument)
    }
  }

  /// Runs to the end. A failure that ends the run is said here, and only here, in one sentence.
  func result() async -> RunResult {
    let result: RunResult
    do {
      result = try await outcome()
    } catch {
      terminal.failure(error)
      result = .failed(error)
    }
    // Every record in the log before the process exits, a `--when-done` run's too.
    await HistoryWriter.finishAll()
    return result
  }

  /// The run's result, or the failure that ends it, which ``result()`` says.
  func outcome() async throws(RunFailure) -> RunResult {
    if case .list(let modules, let voices) = request.work {
      // A phase of its own, which a signal ends at once: the lists are read with a
      // bound of 2 s of silence, and signals are kept, not left to their default action.
      let run = self
      let listing = await RunDriver(signals: signals).phase(stopping: []) { () async -> RunFailure? in
        do throws(RunFailure) { try await run.list(modules: modules, voices: voices) } catch { return error }
        return nil
      }
      switch listing {
      case .interrupted(let signal): return .interrupted(signal)
      case .finished(let failure?): throw failure
      case .finished(nil): return .listed
      }
    }
    try checkSSMLTexts()
    let watched = try watchedProcess()
    if request.work == .detach { return try await detach(passing: watched) }
    if let watched { return try await speakWhenEnded(watched) }
    let braille = try await openBraille()
    let notifications = try await openNotifications()
    // The channels beside speech, in the order they are stopped and finish in.
    let others: [any DeliveryChannel] =
      (brailleChannel(braille).map { [$0] } ?? []) + (notifications.map { [$0] } ?? [])
    guard request.plan.uses(.speech) else {
      let result = await deliver(on: others, defaults: request.defaults)
      if case .finished(let summary) = result { sumUp(summary, service: nil) }
      return result
    }
    let terminal = self.terminal
    let speaker: (announcer: Announcer, voices: (any VoiceListing)?)
    do {
      speaker = try await service.speaker(
        for: request,
        // Without a word, announcers would talk over each other with no hint why.
        whenTurnsUnavailable: { terminal.error($0.printedMessage) })
    } catch {
      recordUnheard(because: .unreachable)
      throw RunFailure(connecting: error)
    }
    let announcer = speaker.announcer
    if request.outcomes.verbose, let service = announcer.speechService {
      terminal.error(
        localized(
          "Connected to speech-dispatcher at {address}.", ["address": SpeechServiceWords.printed(service)]))
    }
    // Names speech-dispatcher does not know would be spoken with some other voice.
    // A check cut short (the daemon stopped answering, or went away) is no pass.
    let catalog = speaker.voices.map { VoiceCatalog($0, howToList: VoiceMismatch.howToList) }
    var defaults = request.defaults
    if let catalog {
      let problem: String?
      do {
        problem = try await catalog.mismatch(with: request.defaults.voice)?.printedSentence
      } catch {
        await announcer.close()
        recordUnheard(because: .notAnswering)
        throw RunFailure(connecting: error)
      }
      if let problem, request.outcomes.replays != nil {
        // The record names a module, voice or language that has gone since: the user
        // typed nothing wrong, and what was missed is better heard in another voice
        // than never.
        terminal.error(
          localized(
            "Replaying it with speech-dispatcher's default voice, because {problem}", ["problem": problem]))
        defaults.voice.outputModule = nil
        defaults.voice.voiceName = nil
        defaults.voice.language = nil
      } else if let problem {
        await announcer.close()
        throw .usage(problem)
      }
    }
    let speech = SpeechChannel(announcer: announcer, defaults: defaults, catalog: catalog)
    // Speech first: it is stopped first on a signal, and finishes first, so that the
    // display hears of every outcome before it closes.
    let channels: [any DeliveryChannel] = [speech] + others
    let result = await deliver(on: channels, defaults: defaults)
    if case .finished(let summary) = result { sumUp(summary, service: announcer.speechService) }
    return result
  }

  /// Records each TEXT as missed, given up for `reason`, when the run ends before the
  /// announcer took it: replay exists for these. Lines of standard input were not read
  /// yet and stay unread, so nothing is recorded for them (see the man page's History
  /// and replay).
  func recordUnheard(because reason: GiveUpReason) {
    guard let recorder else { return }
    for (index, text) in request.texts.enumerated() {
      var announcement = request.defaults
      announcement.text = text
      // A blank one would not have been spoken either.
      guard announcement.isSSML || SpeakableText.hasSpeech(text) else { continue }
      let id = AnnouncementID(index + 1)
      recorder.queued(announcement.asSpoken, as: id)
      recorder.reported(
        SpeechReport(
          AnnouncerEvent(announcement: id, text: text, attempt: 0, time: .zero, kind: .gaveUp(reason))))
    }
  }

  /// `--braille-only`: records each TEXT as not shown, for `failure`, when the display
  /// could not be reached at all, so that `history --missed` lists it with braille's own
  /// reason and `replay` shows or speaks it later.
  func recordNotShown(because failure: BrailleFailure) {
    recordUndelivered { id, shown in
      FlashReport(id: id, text: shown, outcome: .notShown(failure), withSpeech: false, time: .zero)
    }
  }

  /// Records each TEXT with the report `report` makes of its id and shown text, when the
  /// one channel that had to deliver could not be opened at all, so that `history
  /// --missed` lists it in that channel's words and `replay` brings it back.
  func recordUndelivered(_ report: (AnnouncementID, String) -> any ChannelReport) {
    guard let recorder else { return }
    for (index, text) in request.texts.enumerated() {
      // The words, never SSML's markup, as a flash shows them; a blank one would not
      // have been shown either.
      let ssml = request.defaults.isSSML
      let shown = ShownText.oneLine(ssml ? text : Announcement(text).asSpoken.text, ssml: ssml)
      guard SpeakableText.hasSpeech(shown) else { continue }
      let id = AnnouncementID(index + 1)
      recorder.queued(Announcement(shown), as: id)
      recorder.reported(report(id, shown))
    }
  }

  /// SSML TEXTs are checked before anything connects, so that `--detach` reports them too.
  private func checkSSMLTexts() throws(RunFailure) {
    guard request.defaults.isSSML else { return }
    for text in request.texts {
      if let problem = SSMLValidator.check(text) {
        let phrase = problem.printedPhrase.capitalizedFirst
        EnglishOriginals.remember(phrase, english: problem.phrase.capitalizedFirst)
        throw .badInput(
          localized("Bad input: {problem}; fix the SSML or leave out --ssml.", ["problem": phrase]))
      }
    }
  }

  /// Delivers every input line on `channels` until the input ends, or until a signal
  /// stops them; the ``RunDriver`` decides which comes first.
  private func deliver(on channels: [any DeliveryChannel], defaults: Announcement) async -> RunResult {
    if request.readsStandardInput && isatty(0) == 1 {
      terminal.error(
        localized("Reading announcements from the terminal, one per line; press Control-D to finish."))
    }
    let loop = DeliveryLoop(
      plan: request.plan, channels: channels, sinks: sinks(), terminal: terminal, defaults: defaults)
    let lines = inputLines()
    var formatted = request.reading
    if case .standardInput(let format) = request.input { formatted.format = format }
    formatted.wordsLanguage = SpokenLanguage(for: request).catalog
    let reading = formatted
    return await RunDriver(signals: signals).run(channels: channels.map { $0 as any StoppableChannel }) {
      await loop.run(lines, reading: reading)
    }
  }

  /// The display's channel: beside other channels, each flash is held until they are
  /// done with its item; alone, flood control and `--timeout` bound the flashes.
  private func brailleChannel(_ flasher: BrailleFlasher?) -> BrailleChannel? {
    guard let flasher else { return nil }
    let alone = request.plan.channels == [.braille]
    return BrailleChannel(
      flasher: flasher, terminal: terminal, followsOthers: !alone, limit: alone ? request.flashLimit : nil,
      floodControl: alone
        ? (maxWaiting: request.maxQueue, wording: SpokenLanguage(for: request).floodSummary) : nil)
  }

  /// Where events go: the JSON stream and the verbose lines, as asked, and the history
  /// unless it is turned off.
  func sinks() -> [any EventSink] {
    var sinks: [any EventSink] = []
    if request.outcomes.json { sinks.append(JSONEventStream(terminal: terminal)) }
    if request.outcomes.verbose { sinks.append(VerboseLines(terminal: terminal)) }
    if let recorder { sinks.append(recorder) }
    return sinks
  }

  /// The announcements: the TEXT arguments, or the lines of standard input.
  func inputLines() -> AsyncStream<InputLines.Line> {
    if request.input == .standardInput(.jsonDocument) { return InputDocument.standardInput() }
    if request.readsStandardInput { return InputLines.standardInput() }
    let texts = request.texts
    return AsyncStream { continuation in
      for (index, text) in texts.enumerated() {
        continuation.yield(InputLines.Line(number: index + 1, text: text))
      }
      continuation.finish()
    }
  }

  /// The sentences that sum up a finished run: a lost speech-dispatcher, and how many
  /// announcements flood control dropped.
  func sumUp(_ summary: RunSummary, service: String?) {
    if summary.failures.contains(.speech(.disconnected)) {
      terminal.failure(
        localized(
          "speech-dispatcher at {address} went away and did not come back in time; start it again, and read its log in ~/.cache/speech-dispatcher/log if it keeps stopping.",
          ["address": service.map { SpeechServiceWords.printed($0) } ?? localized("its address")]),
        endingWith: .finished(summary))
    }
    if summary.dropped > 0 {
      terminal.error(
        localized(
          "Skipped {count} announcement because more than {limit} were waiting; raise --max-queue to keep more.",
          plural:
            "Skipped {count} announcements because more than {limit} were waiting; raise --max-queue to keep more.",
          count: summary.dropped
        )
        .replacingBytes(of: "{count}", with: String(summary.dropped))
        .replacingBytes(of: "{limit}", with: String(request.maxQueue)))
    }
  }
}

extension String {
  /// The string with its first letter in upper case, for the start of a sentence.
  var capitalizedFirst: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }
}
