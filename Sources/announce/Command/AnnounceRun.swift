import AnnouncerCore
import FoundationEssentials
import Glibc

/// What one run of `announce` came to. ``ExitStatus/of(_:)`` turns it into the exit status.
enum RunResult: Sendable {
  /// The output modules or voices were listed.
  case listed
  /// `--detach` started the delivery in the background.
  case detached
  /// The input ended and every announcement has its outcome.
  case finished(RunSummary)
  /// A signal ended the run, after our speech was cancelled and every outcome reported.
  case interrupted(HandledSignal)
  /// The run could not start or go on; its sentence was said.
  case failed(RunFailure)
}

/// Why a run ended before its announcements were spoken: one sentence naming the cause
/// and the fix, and the exit status.
struct RunFailure: Error, Sendable {
  var sentence: String
  var status: Int32

  init(_ sentence: String, status: Int32) {
    self.sentence = sentence
    self.status = status
  }
}

/// One run of the `announce` command: it takes the parsed options as its request, does
/// what they ask, and returns one ``RunResult``, whichever way the run ends: the input
/// running out, a failure, or a ``HandledSignal``.
struct AnnounceRun {
  /// The parsed and validated command line.
  let request: Announce
  /// The log of a detached run's outcomes; `nil` in the foreground.
  let log: OutcomeLog?
  /// Where the sentences go.
  let terminal: Terminal
  /// Where every outcome is recorded, for `announce history` and `replay`; `nil` when turned off.
  let recorder: HistoryRecorder?

  init(_ request: Announce) {
    self.request = request
    log =
      request.detach.isChild && HistorySwitch.records(request)
      ? OutcomeLog.forUser(environment: Announce.environment) : nil
    terminal = Terminal(quiet: request.output.quiet, log: log)
    recorder = HistoryRecorder.forRun(request, terminal: terminal)
  }

  /// Runs to the end. A failure that ends the run is said here, and only here, in one sentence.
  func result() async -> RunResult {
    do {
      return try await outcome()
    } catch {
      terminal.failure(error.sentence, status: error.status)
      return .failed(error)
    }
  }

  private func outcome() async throws(RunFailure) -> RunResult {
    if request.listing.anything {
      try await request.listDiscovery()
      return .listed
    }
    try checkSSMLTexts()
    let watched = try watchedProcess()
    if request.detach.requested { return try await detach(passing: watched) }
    if let watched {
      switch try await waitUntilEnded(watched) {
      case .ended(let speaking): return try await AnnounceRun(speaking).outcome()
      case .interrupted(let signal): return .interrupted(signal)
      }
    }
    let terminal = self.terminal
    let options = request.announcerOptions
    let speechd = try await request.connecting { () throws(SpeechdConnectError) in
      try await SpeechdSpeaker.connect(
        address: request.output.address, appName: request.output.appName,
        defaultTimeout: .seconds(options.resolvedTimeout), maxWaiting: options.resolvedMaxQueue,
        environment: Announce.environment,
        // Without a word, announcers would talk over each other with no hint why.
        whenTurnsUnavailable: { terminal.error($0.message) })
    }
    let announcer = speechd.announcer
    if request.output.verbose, let service = announcer.speechService {
      terminal.error("Connected to speech-dispatcher at \(service).")
    }
    // Names speech-dispatcher does not know would be spoken with some other voice.
    // A check cut short (the daemon stopped answering, or went away) is no pass.
    let catalog = VoiceCatalog(speechd.lists, howToList: Announce.howToListVoices)
    let problem: String?
    do {
      problem = try await request.connecting { () throws(SpeechdConnectError) in
        try await catalog.problem(with: request.voice.options)
      }
    } catch {
      await announcer.close()
      throw error
    }
    if let problem {
      await announcer.close()
      throw RunFailure(problem, status: ExitStatus.usage)
    }
    let result = await speak(with: announcer, catalog: catalog)
    if case .finished(let summary) = result { sumUp(summary, service: announcer.speechService) }
    return result
  }

  /// SSML TEXTs are checked before anything connects, so that `--detach` reports them too.
  private func checkSSMLTexts() throws(RunFailure) {
    guard request.announcerOptions.ssml && !request.readsStandardInput else { return }
    for text in request.texts {
      if let problem = SSMLValidator.problem(in: text) {
        throw RunFailure(
          "Bad input: \(problem.capitalizedFirst); fix the SSML or leave out --ssml.",
          status: ExitStatus.badInput)
      }
    }
  }

  /// Feeds every input line to `announcer` until the input ends, or until a signal
  /// cancels our speech; whichever comes first is the result.
  ///
  /// A signal claims the ending as it arrives, so the session, which then ends because its
  /// speech was cancelled, leaves the result to the signal; a signal that arrives after
  /// the session ended changes nothing. The session is not waited for after a signal:
  /// it may be blocked reading standard input, and the process exits with the result.
  private func speak(with announcer: Announcer, catalog: VoiceCatalog?) async -> RunResult {
    if request.readsStandardInput && isatty(0) == 1 {
      terminal.error("Reading announcements from the terminal, one per line; press Control-D to finish.")
    }
    let session = AnnounceSession(
      announcer: announcer, defaults: request.announcement(text: ""), catalog: catalog,
      sinks: request.sinks(terminal: terminal, recorder: recorder),
      terminal: terminal)
    let (endings, ending) = AsyncStream.makeStream(of: RunResult.self, bufferingPolicy: .bufferingOldest(1))
    let signals = await SignalTrap.armed { signal in
      await session.cancelAll()
      ending.yield(.interrupted(signal))
    }
    defer { signals.disarm() }
    let lines = inputLines()
    let format = request.input.format
    let ssml = request.announcerOptions.ssml
    Task {
      let summary = await session.run(lines, format: format, ssml: ssml)
      if signals.received == nil { ending.yield(.finished(summary)) }
    }
    var first = endings.makeAsyncIterator()
    guard let result = await first.next() else {
      preconditionFailure("the endings of a run never finish without one")
    }
    return result
  }

  /// The announcements: the TEXT arguments, or the lines of standard input.
  private func inputLines() -> AsyncStream<InputLines.Line> {
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
  private func sumUp(_ summary: RunSummary, service: String?) {
    if summary.failures.contains(.disconnected) {
      terminal.failure(
        "speech-dispatcher at \(service ?? "its address") went away and did not come back in time; "
          + "start it again, and read its log in ~/.cache/speech-dispatcher/log if it keeps stopping.",
        status: ExitStatus.serviceUnavailable)
    }
    if summary.dropped > 0 {
      terminal.error(
        "Skipped \(summary.dropped) announcement\(summary.dropped == 1 ? "" : "s") because more than "
          + "\(request.announcerOptions.resolvedMaxQueue) were waiting; raise --max-queue to keep more.")
    }
  }
}
