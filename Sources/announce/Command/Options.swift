import AnnouncerCore
import ArgumentParser

/// How hard and when each announcement is tried.
struct AnnouncerOptions: SettingsGroup {
  @Option(Settings.timeout) var timeout: Double?
  @Option(Settings.delay) var delay: Double?
  @Option(Settings.priority) var priority: SpeechPriority?
  @Option(Settings.soundIcon) var soundIcon: String?
  @Flag(Settings.ssml) var ssml: Bool
  @Flag(Settings.restart) var restart: Bool
  @Option(Settings.maxQueue) var maxQueue: Int?
  @Option(Settings.whenDone) var whenDone: Int?

  /// The queue bound when neither `--max-queue` nor `ANNOUNCE_MAX_QUEUE` gives one.
  static let defaultMaxQueue = 50
  /// The queue bounds accepted.
  static let maxQueueRange = 1...1_000_000

  /// The queue bound after the environment is consulted.
  var resolvedMaxQueue: Int { maxQueue ?? Self.defaultMaxQueue }

  static var properties: [SettingProperty<Self>] {
    [
      .init(Settings.timeout, \.timeout), .init(Settings.delay, \.delay),
      .init(Settings.priority, \.priority), .init(Settings.soundIcon, \.soundIcon),
      .init(Settings.ssml, \.ssml), .init(Settings.restart, \.restart),
      .init(Settings.maxQueue, \.maxQueue), .init(Settings.whenDone, \.whenDone),
    ]
  }
}

/// How the voice sounds: the options spd-say has.
struct VoiceArguments: SettingsGroup {
  @Option(Settings.rate) var rate: Int?
  @Option(Settings.pitch) var pitch: Int?
  @Option(Settings.pitchRange) var pitchRange: Int?
  @Option(Settings.volume) var volume: Int?
  @Option(Settings.language) var language: String?
  @Option(Settings.voice) var voice: String?
  @Option(Settings.voiceType) var voiceType: VoiceOptions.VoiceType?
  @Option(Settings.outputModule) var outputModule: String?
  @Option(Settings.punctuation) var punctuation: VoiceOptions.Punctuation?
  @Flag(Settings.spell) var spell: Bool

  static var properties: [SettingProperty<Self>] {
    [
      .init(Settings.rate, \.rate), .init(Settings.pitch, \.pitch),
      .init(Settings.pitchRange, \.pitchRange), .init(Settings.volume, \.volume),
      .init(Settings.language, \.language), .init(Settings.voice, \.voice),
      .init(Settings.voiceType, \.voiceType), .init(Settings.outputModule, \.outputModule),
      .init(Settings.punctuation, \.punctuation), .init(Settings.spell, \.spell),
    ]
  }

  /// The voice these options ask for; `nil` fields leave speech-dispatcher's own setting.
  var options: VoiceOptions {
    var announcement = Announcement("")
    apply(to: &announcement)
    return announcement.voice
  }
}

/// Where to connect and what to print.
struct OutputOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "speech-dispatcher address, as in SPEECHD_ADDRESS: unix_socket:PATH or inet_socket:HOST:PORT.",
      valueName: "address"))
  var address: String?

  @Option(
    name: [.customShort("N"), .long],
    help: ArgumentHelp("Client name shown by speech-dispatcher.", valueName: "name"))
  var appName = "announce"

  @Flag(name: .shortAndLong, help: "Print one plain line per event on standard error.")
  var verbose = false

  @Flag(help: "Print every event as a JSON object, one per line, on standard output.")
  var json = false

  @Flag(name: .shortAndLong, help: "Print nothing on standard error except usage errors.")
  var quiet = false

  @Flag(
    name: .customLong("no-history"),
    help: "Record no outcome in the history of announce history and announce replay; as ANNOUNCE_HISTORY=off."
  )
  var noHistory = false

  /// Checks the options; throws a usage error for the first that is not valid.
  func validate(environment: [String: String]) throws {
    if let address, SpeechdAddress.parse(address) == nil {
      throw ValidationError(
        localized(
          "--address \"{address}\" is not a speech-dispatcher address; use unix_socket:PATH or inet_socket:HOST:PORT.",
          ["address": address]))
    }
    _ = try HistorySwitch.isOn(environment: environment)
    if verbose && quiet {
      throw ValidationError(localized("--verbose and --quiet contradict each other; choose one."))
    }
    if appName.isEmpty || appName.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == ":" }) {
      throw ValidationError(
        localized("--app-name must be one word without quotes or colons, such as announce."))
    }
  }
}

/// How standard input is read.
struct InputOptions: ParsableArguments {
  /// The ways standard input can be read.
  enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
    case lines, json
    /// One JSON object, from standard input whether or not it spans lines, or from the
    /// one TEXT: a coding agent's hook payload.
    case jsonDocument = "json-document"
  }

  @Option(
    name: .customLong("input"),
    help: ArgumentHelp(
      "How the input is read: one announcement per line, one JSON object per line, or one JSON document (from standard input or the one TEXT).",
      valueName: "format"))
  var format: Format = .lines
}

/// What speech-dispatcher has, listed instead of speaking.
struct ListingOptions: ParsableArguments {
  @Flag(name: .customLong("list-modules"), help: "List speech-dispatcher's output modules and exit.")
  var modules = false

  @Flag(
    name: .customLong("list-voices"),
    help: "List the synthesis voices of the chosen module and language, and exit.")
  var voices = false

  /// Whether anything is listed, instead of announced.
  var anything: Bool { modules || voices }
}

/// Delivery in the background.
struct DetachOptions: ParsableArguments {
  @Flag(
    name: .customLong("detach"),
    help:
      "Check the input and the connection, then deliver in the background and exit 0 at once; outcomes go to ~/.local/state/announce/log.jsonl."
  )
  var requested = false

  /// Set in the background process that `--detach` starts; see ``Detach``.
  @Flag(name: .customLong("detached-child"), help: .private)
  var isBackgroundHalf = false
}

extension SpeechPriority: ExpressibleByArgument {
  /// A priority in any case, as in JSON input and `ANNOUNCE_PRIORITY`.
  public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension VoiceOptions.VoiceType: ExpressibleByArgument {
  /// A voice type in any case, as everywhere else.
  public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension VoiceOptions.Punctuation: ExpressibleByArgument {
  /// A punctuation level in any case, as everywhere else.
  public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
