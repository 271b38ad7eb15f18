import AnnouncerCore
import Synchronization

extension AnnounceRun {
  /// Opens the braille display the request asks for: `nil` when braille is off (and
  /// libbrlapi is never loaded). With `--braille`, a display that cannot be reached is
  /// said in one line and the speech goes ahead without it.
  ///
  /// - Throws: with `--braille-only`, the service-unavailable failure naming the BrlAPI
  ///   host, after recording the TEXTs as missed, so that `replay` can show them later:
  ///   a hook's or a tmux alert's text was gone for good.
  func openBraille() async throws(RunFailure) -> BrailleFlasher? {
    guard request.plan.uses(.braille) else { return nil }
    switch await brailleService.flasher(
      timing: request.braille.timing, environment: request.connection.environment)
    {
    case .success(let flasher): return flasher
    case .failure(let unavailable):
      if request.plan.requires(.braille) {
        recordNotShown(because: .unavailable)
        throw .serviceUnavailable(unavailable.printedMessage)
      }
      terminal.error(unavailable.printedMessage)
      return nil
    }
  }

  /// `--braille-only`: shows every input line on the display, one after another, without
  /// speech, and waits until each has been shown for its whole time or acknowledged. At
  /// most `--max-queue` wait for the display: flood control leaves out the oldest and
  /// shows one summary instead, as speech's does.
  /// speech-dispatcher is never reached.
  ///
  /// Each outcome is braille's own (`shown` or `not-shown`, see ``FlashReport``), which
  /// the channel reports to `--json`, `--verbose` and the history as soon as it is known.
  func showBrailleOnly(on flasher: BrailleFlasher) async -> RunResult {
    let sinks = self.sinks()
    let terminal = self.terminal
    let summary = Mutex(RunSummary())
    let plan = request.plan
    let floodControl = (maxWaiting: request.maxQueue, wording: SpokenLanguage(for: request).floodSummary)
    let channel = BrailleChannel(
      flasher: flasher, sinks: sinks, terminal: terminal, floodControl: floodControl
    ) {
      _, text, outcome, _ in
      if let failure = plan.failure(of: .braille(outcome)) { summary.withLock { $0.count(failure) } }
      if outcome == .notShown(.outOfTime) {
        terminal.error(
          localized(
            "Not delivered: \"{text}\": its timeout ran out before it could be read at the braille pace; raise --timeout, or --braille-pace.",
            ["text": EventDescription.shortened(text)]))
      }
    }
    let lines = inputLines()
    let limit = request.braille.limit
    let request = self.request
    let result = await RunDriver(signals: signals).run(channels: [channel]) {
      var count = 0
      for await line in lines where SpeakableText.hasSpeech(line.text) {
        count += 1
        let id = AnnouncementID(count)
        // The words, never SSML's markup, on one line.
        let ssml = request.defaults.isSSML
        let text = HistoryWords.shown(ssml ? line.text : Announcement(line.text).asSpoken.text, ssml: ssml)
        let queued = AnnouncerEvent(announcement: id, text: text, attempt: 0, time: .zero, kind: .queued)
        for sink in sinks {
          sink.queued(Announcement(text), as: id)
          sink.record(queued)
        }
        channel.show(text, for: id, withSpeech: false, limit: limit)
      }
      await channel.finish()
      return summary.withLock { $0 }
    }
    if case .finished(let summary) = result { sumUp(summary, service: nil) }
    return result
  }
}
