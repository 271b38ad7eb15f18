import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// The `announce` command: its options, and the ``AnnounceRequest`` they make, which
/// ``AnnounceRun`` carries out; the speech itself happens in AnnouncerCore. ``Main``
/// starts it.
struct Announce: DeliveringCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce",
    abstract: "Speak announcements through speech-dispatcher, and tell whether they were heard.",
    discussion: """
      Each TEXT is one announcement, and they are spoken in order. With no TEXT, announce \
      speaks each line of standard input as it arrives. When other speech interrupts an \
      announcement, announce waits until that speech has finished and says it again, until \
      the timeout runs out. The exit status is 0 when every announcement was heard to the \
      end, 1 when one was not, 64 for a usage error, 65 for bad input, and 69 when speech \
      cannot be heard. Every error is one line on standard error.

      Other commands are chosen by the first word: "announce init bash" (or zsh or fish) \
      prints a shell hook that announces long commands when they end; "announce init tmux" \
      and "announce init ssh HOST" print settings for tmux and for SSH; "announce history" \
      lists what was said, "announce replay" speaks again what you missed, and \
      "announce doctor" finds out why you hear nothing. To speak one of these words, put \
      two dashes before it: announce -- init. The manual page, man announce, describes \
      everything in full.
      """,
    version: announceVersion
  )

  @OptionGroup(title: "Announcer") var announcerOptions: AnnouncerOptions
  @OptionGroup(title: "Voice") var voice: VoiceArguments
  @OptionGroup(title: "Connection and output") var output: OutputOptions
  @OptionGroup(title: Self.modesTitle) var input: InputOptions
  @OptionGroup(title: Self.modesTitle) var listing: ListingOptions
  @OptionGroup(title: Self.modesTitle) var detach: DetachOptions
  @OptionGroup(title: "Braille") var braille: BrailleOptions
  @OptionGroup(title: "Desktop notifications") var notify: NotifyOptions
  @OptionGroup(title: "Reading Markdown and JSON") var reading: ReadingOptions

  /// One section of the help for the options that choose what a run does: each is
  /// too small to be a section of its own.
  static let modesTitle = "Input, listing and detached delivery"

  @Argument(
    help: "The announcements, one per argument; none or \"-\" reads standard input.",
    completion: .list(["init", "history", "replay", "doctor"]))
  var texts: [String] = []

  /// Whether the announcements come from standard input: never with `--when-done`.
  var readsStandardInput: Bool { announcerOptions.whenDone == nil && (texts.isEmpty || texts == ["-"]) }

  /// Reads the environment, checks everything, and hands the request to ``AnnounceRun``;
  /// returns the exit status of its result, whichever way the run ended.
  func run(signals: ProcessSignals) async throws -> Int32 {
    let request = try request(environment: ProcessInfo.processInfo.environment)
    return ExitStatus.of(await AnnounceRun(request, signals: signals).result())
  }

  /// The request the command line makes, with the defaults that `environment` gives
  /// (such as `ANNOUNCE_RATE`); throws a usage error for the first option or variable
  /// that is not valid.
  func request(environment: [String: String]) throws -> AnnounceRequest {
    var announcerOptions = self.announcerOptions
    try announcerOptions.resolve(environment: environment)
    var voice = self.voice
    try voice.resolve(environment: environment)
    try output.validate(environment: environment)
    try validateWaiting()
    if detach.requested && listing.anything {
      throw ValidationError(
        localized("--detach delivers announcements; leave it out with --list-modules and --list-voices."))
    }
    if detach.requested && (output.json || output.verbose) {
      throw ValidationError(
        localized(
          "--detach returns before anything is spoken, so {option} would print nothing; leave it out and read the outcomes in {path}.",
          [
            "option": output.json ? "--json" : "--verbose",
            "path": OutcomeLog.defaultPath(environment: environment),
          ]))
    }
    if texts.count > 1 && texts.contains("-") {
      throw ValidationError(
        localized(
          "\"-\" reads standard input and must be the only TEXT; give the texts without \"-\", or pipe them all in."
        ))
    }
    if input.format == .jsonDocument && texts.count > 1 {
      throw ValidationError(
        localized(
          "--input json-document reads one document, from standard input or from one TEXT; give at most one TEXT."
        ))
    }
    if input.format == .json && !readsStandardInput {
      throw ValidationError(localized("--input json reads standard input; give no TEXT, or \"-\"."))
    }
    // Braille alone shows each line as it comes; a JSON line's settings are for speech.
    let plan = try DeliveryPlan(braille: braille, notify: notify, environment: environment)
    if input.format == .json, !plan.uses(.speech), plan.uses(.braille) {
      throw ValidationError(
        localized(
          "--input json gives settings for speech, and braille alone shows plain lines; leave out --input json, or use --braille."
        ))
    }
    if detach.requested && readsStandardInput && isatty(0) == 1 {
      throw ValidationError(
        localized("--detach cannot read announcements from the terminal; give them as TEXT, or pipe them in.")
      )
    }
    var defaults = Announcement("")
    announcerOptions.apply(to: &defaults)
    voice.apply(to: &defaults)
    let records = try !output.noHistory && HistorySwitch.isOn(environment: environment)
    let work: AnnounceRequest.Work =
      listing.anything
      ? .list(modules: listing.modules, voices: listing.voices) : detach.requested ? .detach : .speak
    return AnnounceRequest(
      work: work, input: readsStandardInput ? .standardInput(input.format) : .texts(texts),
      reading: try reading.reading(format: input.format),
      defaults: defaults, maxQueue: announcerOptions.resolvedMaxQueue,
      whenDone: announcerOptions.whenDone.map {
        AnnounceRequest.WhenDone(pid: pid_t($0), isPassedIn: detach.isBackgroundHalf)
      },
      connection: AnnounceRequest.Connection(
        address: output.address, appName: output.appName, environment: environment),
      outcomes: AnnounceRequest.Outcomes(
        json: output.json, verbose: output.verbose, quiet: output.quiet,
        history: records ? OutcomeLog.forUser(environment: environment) : nil,
        unattended: detach.isBackgroundHalf),
      plan: plan,
      braille: AnnounceRequest.Braille(timing: braille.timing))
  }
}
