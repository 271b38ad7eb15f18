import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// The `announce` command: parses, validates, and maps outcomes to exit status.
/// Everything else happens in AnnouncerCore. ``Main`` starts it.
struct Announce: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce",
    abstract: "Speak announcements through speech-dispatcher and report whether they were heard.",
    discussion: """
      Each TEXT is one announcement, spoken in order. With no TEXT, or the single TEXT "-", \
      every non-blank line of standard input is one announcement, spoken as it arrives; "-" \
      among other TEXTs is a usage error. Every error is one line on standard error. An \
      announcement that other speech interrupts is tried again, once the channel is quiet, \
      until its timeout runs out. The exit status is 0 only when every announcement was \
      heard to the end. "announce init bash" (or zsh, fish) prints a shell hook that \
      announces each command that ran long; to speak the word "init", give "announce -- init".
      """,
    version: announceVersion
  )

  @OptionGroup(title: "Announcer") var announcer: AnnouncerOptions
  @OptionGroup(title: "Voice") var voice: VoiceArguments
  @OptionGroup(title: "Connection and output") var output: OutputOptions
  @OptionGroup(title: Self.modesTitle) var input: InputOptions
  @OptionGroup(title: Self.modesTitle) var listing: ListingOptions
  @OptionGroup(title: Self.modesTitle) var detach: DetachOptions

  /// One section of the help for the options that choose what a run does: each is
  /// too small to be a section of its own.
  static let modesTitle = "Input, listing and detached delivery"

  @Argument(help: "The announcements, one per argument; none or \"-\" reads standard input.")
  var texts: [String] = []

  /// Whether the announcements come from standard input.
  var readsStandardInput: Bool { texts.isEmpty || texts == ["-"] }

  /// The environment that defaults such as `ANNOUNCE_RATE` are read from; tests give
  /// their own, so that parsing never depends on the caller's.
  @TaskLocal static var environment = ProcessInfo.processInfo.environment

  mutating func validate() throws {
    let environment = Self.environment
    try announcer.resolve(environment: environment)
    try voice.resolve(environment: environment)
    try output.validate()
    if detach.requested && listing.anything {
      throw ValidationError(
        "--detach delivers announcements; leave it out with --list-modules and --list-voices.")
    }
    if detach.requested && (output.json || output.verbose) {
      throw ValidationError(
        "--detach returns before anything is spoken, so \(output.json ? "--json" : "--verbose") would print nothing; leave it out and read the outcomes in ~/.local/state/announce/log.jsonl."
      )
    }
    if texts.count > 1 && texts.contains("-") {
      throw ValidationError(
        "\"-\" reads standard input and must be the only TEXT; give the texts without \"-\", or pipe them all in."
      )
    }
    if input.format == .json && !readsStandardInput {
      throw ValidationError("--input json reads standard input; give no TEXT, or \"-\".")
    }
    if detach.requested && readsStandardInput && isatty(0) == 1 {
      throw ValidationError(
        "--detach cannot read announcements from the terminal; give them as TEXT, or pipe them in.")
    }
  }

  func run() async throws {
    let log = detach.isChild ? OutcomeLog.forUser(environment: Self.environment) : nil
    let terminal = Terminal(quiet: output.quiet, log: log)
    if listing.anything {
      try await listDiscovery(terminal: terminal)
      return
    }
    if announcer.ssml && !readsStandardInput {
      for text in texts {
        if let problem = SSMLValidator.problem(in: text) {
          terminal.failure(
            "Bad input: \(problem.capitalizedFirst); fix the SSML or leave out --ssml.",
            status: ExitStatus.badInput)
          throw ExitCode(ExitStatus.badInput)
        }
      }
    }
    if detach.requested { try await detachDelivery(terminal: terminal) }
    let speaker = try await connecting(terminal: terminal) { () throws(SpeechdConnectError) in
      try await Announcer.speechd(
        address: output.address, appName: output.appName,
        defaultTimeout: .seconds(announcer.resolvedTimeout),
        maxWaiting: announcer.resolvedMaxQueue, environment: Self.environment,
        // Without a word, announcers would talk over each other with no hint why.
        whenTurnsUnavailable: { terminal.error($0.message) })
    }
    if output.verbose, let service = speaker.speechService {
      terminal.error("Connected to speech-dispatcher at \(service).")
    }
    // Names speech-dispatcher does not know would be spoken with some other voice.
    let catalog = speaker.voiceListing.map { VoiceCatalog($0, howToList: Self.howToListVoices) }
    if let problem = await catalog?.problem(with: voice.options) {
      terminal.failure(problem, status: ExitStatus.usage)
      await speaker.close()
      throw ExitCode(ExitStatus.usage)
    }
    if readsStandardInput && isatty(0) == 1 {
      terminal.error("Reading announcements from the terminal, one per line; press Control-D to finish.")
    }
    let session = AnnounceSession(
      announcer: speaker, defaults: announcement(text: ""), catalog: catalog,
      sinks: sinks(terminal: terminal, log: log), terminal: terminal)
    let signals = SignalTrap { signalNumber in
      await session.cancelAll()
      return ExitStatus.interrupted(by: signalNumber)
    }
    defer { signals.disarm() }

    let lines: AsyncStream<InputLines.Line> =
      readsStandardInput
      ? InputLines.standardInput()
      : AsyncStream { continuation in
        for (index, text) in texts.enumerated() {
          continuation.yield(InputLines.Line(number: index + 1, text: text))
        }
        continuation.finish()
      }
    let summary = await session.run(lines, format: input.format, ssml: announcer.ssml)
    // The signal's handler exits too, once it has the same outcomes reported; whichever
    // comes first, the status is the signal's.
    if let signalNumber = signals.received { throw ExitCode(ExitStatus.interrupted(by: signalNumber)) }
    if summary.failures.contains(.disconnected) {
      terminal.failure(
        "speech-dispatcher at \(speaker.speechService ?? "its address") went away and did not come back in time; "
          + "start it again, and read its log in ~/.cache/speech-dispatcher/log if it keeps stopping.",
        status: ExitStatus.serviceUnavailable)
    }
    if summary.dropped > 0 {
      terminal.error(
        "Skipped \(summary.dropped) announcement\(summary.dropped == 1 ? "" : "s") because more than "
          + "\(announcer.resolvedMaxQueue) were waiting; raise --max-queue to keep more.")
    }
    let status = ExitStatus.forSummary(summary)
    if status != ExitStatus.success { throw ExitCode(status) }
  }

  /// How a person lists a module's voices with this command, for the end of a sentence.
  static let howToListVoices: @Sendable (String) -> String = { module in
    "announce --list-voices -o \(module)"
  }

  /// Where events go: the outcome log in the background half of `--detach`, otherwise
  /// the JSON stream and the verbose lines, as asked.
  func sinks(terminal: Terminal, log: OutcomeLog?) -> [any EventSink] {
    if let log { return [log] }
    var sinks: [any EventSink] = []
    if output.json { sinks.append(JSONEventStream(terminal: terminal)) }
    if output.verbose { sinks.append(VerboseLines(terminal: terminal)) }
    return sinks
  }

  /// Runs `connect`; on failure, says why in one sentence and exits with the matching status.
  func connecting<Backend>(
    terminal: Terminal, _ connect: () async throws(SpeechdConnectError) -> Backend
  ) async throws -> Backend {
    do {
      return try await connect()
    } catch {
      let status = ExitStatus.forConnectError(error)
      terminal.failure(error.description, status: status)
      throw ExitCode(status)
    }
  }

  private func listDiscovery(terminal: Terminal) async throws {
    let client = try await connecting(terminal: terminal) { () throws(SpeechdConnectError) in
      try await SpeechdClient.connect(
        address: output.address, environment: Self.environment, appName: output.appName)
    }
    if listing.modules {
      for module in await client.outputModules() { print(module) }
    }
    if listing.voices {
      // The same check as before speaking: an unknown module or language is a usage error.
      let catalog = VoiceCatalog(client, howToList: Self.howToListVoices)
      let asked = VoiceOptions(language: voice.language, outputModule: voice.outputModule)
      if let problem = await catalog.problem(with: asked) {
        terminal.failure(problem, status: ExitStatus.usage)
        await client.close()
        throw ExitCode(ExitStatus.usage)
      }
      let voices = await catalog.voices(of: voice.outputModule, speaking: voice.language)
      for voice in voices { print("\(voice.name)\t\(voice.language)\t\(voice.variant)") }
    }
    await client.close()
  }

  /// The announcement every input becomes, before per-line JSON options.
  func announcement(text: String) -> Announcement {
    var result = Announcement(text)
    announcer.apply(to: &result)
    voice.apply(to: &result)
    return result
  }
}

extension String {
  /// The string with its first letter in upper case, for the start of a sentence.
  var capitalizedFirst: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }
}
