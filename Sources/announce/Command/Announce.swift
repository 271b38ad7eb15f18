import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// The `announce` command: its options and their validation. A parsed command is the
/// request that ``AnnounceRun`` carries out; the speech itself happens in AnnouncerCore.
/// ``Main`` starts it.
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
      announces each command that ran long; to speak the word "init", give "announce -- init". \
      Every run records its outcomes: "announce history" lists them, and "announce replay" \
      speaks again those not heard.
      """,
    version: announceVersion
  )

  @OptionGroup(title: "Announcer") var announcerOptions: AnnouncerOptions
  @OptionGroup(title: "Voice") var voice: VoiceArguments
  @OptionGroup(title: "Connection and output") var output: OutputOptions
  @OptionGroup(title: Self.modesTitle) var input: InputOptions
  @OptionGroup(title: Self.modesTitle) var listing: ListingOptions
  @OptionGroup(title: Self.modesTitle) var detach: DetachOptions

  /// One section of the help for the options that choose what a run does: each is
  /// too small to be a section of its own.
  static let modesTitle = "Input, listing and detached delivery"

  @Argument(
    help: "The announcements, one per argument; none or \"-\" reads standard input.",
    completion: .list(["init", "history", "replay", "doctor"]))
  var texts: [String] = []

  /// Whether the announcements come from standard input: never with `--when-done`.
  var readsStandardInput: Bool { announcerOptions.whenDone == nil && (texts.isEmpty || texts == ["-"]) }

  /// The environment that defaults such as `ANNOUNCE_RATE` are read from; tests give
  /// their own, so that parsing never depends on the caller's.
  @TaskLocal static var environment = ProcessInfo.processInfo.environment

  mutating func validate() throws {
    let environment = Self.environment
    try announcerOptions.resolve(environment: environment)
    try voice.resolve(environment: environment)
    try output.validate()
    try validateWaiting()
    if detach.requested && listing.anything {
      throw ValidationError(
        "--detach delivers announcements; leave it out with --list-modules and --list-voices.")
    }
    if detach.requested && (output.json || output.verbose) {
      throw ValidationError(
        "--detach returns before anything is spoken, so \(output.json ? "--json" : "--verbose") would print nothing; leave it out and read the outcomes in \(OutcomeLog.defaultPath(environment: Self.environment))."
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

  /// Hands the run to ``AnnounceRun`` and exits with the status of its result, which
  /// ``ExitStatus/of(_:)`` decides, whichever way the run ended.
  func run() async throws {
    let status = ExitStatus.of(await AnnounceRun(self).result())
    if status != ExitStatus.success { throw ExitCode(status) }
  }

  /// How a person lists a module's voices with this command, for the end of a sentence.
  static let howToListVoices: @Sendable (String) -> String = { module in
    "announce --list-voices -o \(module)"
  }

  /// Where events go: the JSON stream and the verbose lines, as asked, and the history
  /// unless it is turned off (`recorder` is `nil`).
  func sinks(terminal: Terminal, recorder: HistoryRecorder?) -> [any EventSink] {
    var sinks: [any EventSink] = []
    if output.json { sinks.append(JSONEventStream(terminal: terminal)) }
    if output.verbose { sinks.append(VerboseLines(terminal: terminal)) }
    if let recorder { sinks.append(recorder) }
    return sinks
  }

  /// Runs `connect`; on failure, the sentence that says why and the matching status.
  func connecting<Backend>(
    _ connect: () async throws(SpeechdConnectError) -> Backend
  ) async throws(RunFailure) -> Backend {
    do {
      return try await connect()
    } catch {
      throw RunFailure(
        error.sentence(forwardingWith: Self.howToForward), status: ExitStatus.forConnectError(error))
    }
  }

  /// How a person sets up the forwarding of speech from a server, for the end of a sentence.
  static let howToForward = "the lines of announce init ssh"

  /// `--list-modules` and `--list-voices`: the names go to standard output, one a line. A
  /// list cut short is an error, never a shorter list, and an empty one is no success either.
  func listDiscovery() async throws(RunFailure) {
    let client = try await connecting { () throws(SpeechdConnectError) in
      try await SpeechdClient.connect(
        address: output.address, environment: Self.environment, appName: output.appName)
    }
    let listed: Result<Void, RunFailure>
    do {
      try await list(from: SpeechdLists(address: client.address))
      listed = .success(())
    } catch {
      listed = .failure(error)
    }
    await client.close()
    try listed.get()
  }

  private func list(from lists: SpeechdLists) async throws(RunFailure) {
    if listing.modules {
      let modules = try await connecting { () throws(SpeechdConnectError) in
        try await lists.outputModules()
      }
      guard !modules.isEmpty else {
        throw RunFailure(
          "speech-dispatcher at \(lists.address) lists no output modules, so it cannot speak; "
            + "install one, such as the package speech-dispatcher-espeak-ng, and start it again.",
          status: ExitStatus.serviceUnavailable)
      }
      for module in modules { print(module) }
    }
    if listing.voices {
      // The same check as before speaking: an unknown module or language is a usage error.
      let catalog = VoiceCatalog(lists, howToList: Self.howToListVoices)
      let asked = VoiceOptions(language: voice.language, outputModule: voice.outputModule)
      let problem = try await connecting { () throws(SpeechdConnectError) in
        try await catalog.problem(with: asked)
      }
      if let problem { throw RunFailure(problem, status: ExitStatus.usage) }
      let voices = try await connecting { () throws(SpeechdConnectError) in
        try await catalog.voices(of: voice.outputModule, speaking: voice.language)
      }
      guard !voices.isEmpty else {
        let module = voice.outputModule.map { "output module \"\($0)\"" } ?? "default output module"
        throw RunFailure(
          "speech-dispatcher's \(module) lists no voices, so none can be chosen by name; "
            + "it speaks with the voice its own configuration sets.",
          status: ExitStatus.serviceUnavailable)
      }
      for voice in voices { print("\(voice.name)\t\(voice.language)\t\(voice.variant)") }
    }
  }

  /// The announcement every input becomes, before per-line JSON options.
  func announcement(text: String) -> Announcement {
    var result = Announcement(text)
    announcerOptions.apply(to: &result)
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
