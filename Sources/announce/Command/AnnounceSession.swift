import AnnouncerCore
import FoundationEssentials
import Glibc
import Synchronization

/// Feeds input lines to an ``Announcer`` and reports its events as the user asked.
///
/// This is the glue between the command's options and the library: it does no
/// speech decisions of its own.
final class AnnounceSession: StoppableChannel {
  private let announcer: Announcer
  private let defaults: Announcement
  private let sinks: [any EventSink]
  private let catalog: VoiceCatalog?
  private let terminal: Terminal
  private let clock = ContinuousClock()
  private let started: ContinuousClock.Instant
  /// The task that reports events; a signal waits for it, so that the outcomes of the
  /// cancelled announcements are written before the process exits.
  private let reporting = Mutex<Task<RunSummary, Never>?>(nil)
  /// What delivered means, of which this counts the speech's part.
  private let plan: DeliveryPlan

  /// - Parameters:
  ///   - announcer: speaks the announcements.
  ///   - plan: the run's channels, and which of them must deliver.
  ///   - defaults: the announcement every line becomes, before its own JSON options.
  ///   - catalog: checks the names each JSON line gives; the command line's were checked already.
  ///   - sinks: where events and rejected lines are reported, as the user asked.
  ///   - terminal: where failures are said, one sentence each.
  init(
    announcer: Announcer, plan: DeliveryPlan = .speech, defaults: Announcement, catalog: VoiceCatalog? = nil,
    sinks: [any EventSink],
    terminal: Terminal
  ) {
    self.announcer = announcer
    self.plan = plan
    self.defaults = defaults
    self.catalog = catalog
    self.sinks = sinks
    self.terminal = terminal
    started = clock.now
  }

  /// Announces every line, waits until each has its outcome, and sums up.
  func run(
    _ lines: AsyncStream<InputLines.Line>, format: InputOptions.Format, ssml: Bool
  )
    async -> RunSummary
  {
    let events = announcer.events()
    let sinks = self.sinks
    let terminal = self.terminal
    let plan = self.plan
    let reporter = Task {
      var summary = RunSummary()
      for await event in events {
        for sink in sinks { sink.record(event) }
        if case .gaveUp(let reason) = event.kind {
          if let failure = plan.failure(of: .speech(.gaveUp(reason))) { summary.count(failure) }
          // Dropped ones are summed up at the end instead of one line each.
          if reason == .dropped { continue }
          // Those given up along with an earlier one that found the speech service
          // unavailable are named in that one's sentence: one sentence per failure.
          if event.givenUpWith != nil { continue }
          terminal.error(
            reason.notDeliveredLine(EventDescription.shortened(event.text), along: event.givenUpAlong))
        }
      }
      return summary
    }
    reporting.withLock { $0 = reporter }
    var rejected = 0
    var sinceQueued = 0
    for await line in lines {
      // Keeps the announcer's inbox short; flood control bounds the queue itself.
      sinceQueued += 1
      if sinceQueued == 32 {
        sinceQueued = 0
        await announcer.waitUntilQueued()
      }
      switch await checked(announcement(for: line, format: format, ssml: ssml)) {
      case .success(let announcement):
        // A line of nothing but escape sequences is as blank as an empty one.
        if announcement.isSSML || SpeakableText.hasSpeech(announcement.text) {
          // The sinks, the braille channel among them, hear of it before the announcer
          // takes it: one merged at once had its outcome reported before its flash and
          // its history entry existed, which then waited for it for ever.
          let id = announcer.nextID()
          for sink in sinks { sink.queued(announcement, as: id) }
          announcer.enqueue(announcement, as: id)
        }
      case .failure(let error):
        rejected += 1
        reject(line, because: error)
      }
    }
    await announcer.waitUntilIdle()
    await announcer.close()
    var summary = await reporter.value
    summary.rejectedLines = rejected
    return summary
  }

  /// Gives up everything and cancels our speech, then waits until every outcome has
  /// been reported; for signals. Closing the announcer ends its events, so the wait
  /// is bounded by ``Announcer/close(waitingAtMost:)``.
  func stop() async {
    await announcer.cancelAll()
    await announcer.close()
    let reporter = reporting.withLock { $0 }
    _ = await reporter?.value
  }

  private func announcement(
    for line: InputLines.Line, format: InputOptions.Format, ssml: Bool
  ) -> Result<Announcement, LineError> {
    if line.isOverlong {
      return .failure(
        LineError(
          localized(
            "it is longer than the limit of {mebibytes} MiB ({bytes} bytes); split it into shorter lines",
            ["mebibytes": String(InputLines.maxLineBytes >> 20), "bytes": String(InputLines.maxLineBytes)])))
    }
    var announcement = defaults
    // The text is made speakable once, by the announcer, when it takes the announcement.
    switch format {
    case .lines:
      announcement.text = line.text
    case .json:
      do {
        announcement = try AnnouncementLine.decode(line.text).announcement(defaults: defaults)
      } catch {
        return .failure(error)
      }
    }
    if announcement.isSSML, let problem = SSMLValidator.check(announcement.text) {
      return .failure(LineError(problem.printedPhrase, english: problem.phrase))
    }
    return .success(announcement)
  }

  /// `announcement`, or a rejection when it names a module, voice or language speech-dispatcher lacks.
  private func checked(
    _ announcement: Result<Announcement, LineError>
  ) async -> Result<Announcement, LineError> {
    // A check cut short lets the line through: the announcer meets the same silent daemon
    // and says so when the announcement gives up.
    guard case .success(let found) = announcement, found.voice != defaults.voice, let catalog,
      let problem = try? await catalog.mismatch(with: found.voice)?.printedSentence
    else { return announcement }
    let english = EnglishOriginals.english(of: problem)
    return .failure(LineError(Self.withoutFullStop(problem), english: Self.withoutFullStop(english)))
  }

  /// `sentence` without its full stop, as a phrase inside another sentence.
  private static func withoutFullStop(_ sentence: String) -> String {
    sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
  }

  private func reject(_ line: InputLines.Line, because reason: LineError) {
    let time = started.duration(to: clock.now)
    // The JSON event and the outcome log keep the English.
    for sink in sinks {
      sink.rejected(line: line.number, input: line.text, reason: reason.english, time: time)
    }
    terminal.error(
      localized(
        "Skipped input line {number}: {reason}.",
        ["number": String(line.number), "reason": reason.description]))
  }
}
