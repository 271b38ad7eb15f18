import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// How hard and when each announcement is tried.
struct AnnouncerOptions: ParsableArguments {
  @Option(
    name: [.short, .long], parsing: .unconditional,
    help: ArgumentHelp(
      "Retry window in seconds, counted from the first attempt; 0 means no retry (default: 3, or ANNOUNCE_TIMEOUT).",
      valueName: "seconds"))
  var timeout: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Seconds to wait before the first attempt (default: 0).", valueName: "seconds"))
  var delay: Double?

  @Option(
    name: [.customShort("P"), .long],
    help: ArgumentHelp(
      "speech-dispatcher priority of every attempt (default: text, or ANNOUNCE_PRIORITY).",
      valueName: "priority"))
  var priority: SpeechPriority?

  @Option(
    name: [.customShort("I"), .long],
    help: ArgumentHelp(
      "Play this sound icon before each announcement, such as \"message\" from the sound-icons package.",
      valueName: "name"))
  var soundIcon: String?

  @Flag(
    name: [.customShort("x"), .long],
    help: "TEXT is SSML; it must be well-formed XML with a <speak> root.")
  var ssml = false

  @Flag(
    help:
      "A retry repeats the whole text; by default a retry of plain text resumes at the sentence that was cut off."
  )
  var restart = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "At most this many announcements wait; when more arrive, the oldest waiting ones are skipped and a summary is spoken (default: 50, or ANNOUNCE_MAX_QUEUE).",
      valueName: "count"))
  var maxQueue: Int?

  /// The queue bound after the environment is consulted.
  private(set) var resolvedMaxQueue = 50
  /// The largest queue bound accepted.
  static let maxQueueRange = 1...1_000_000

  /// The timeout after the environment is consulted.
  private(set) var resolvedTimeout = Double(Announcement.defaultRetryTimeout.components.seconds)
  /// The priority after the environment is consulted.
  private(set) var resolvedPriority: SpeechPriority = .text

  mutating func resolve(environment: [String: String]) throws {
    if let timeout {
      guard Announcement.acceptsWait(timeout) else {
        throw ValidationError("--timeout must be a number of seconds from 0 to 86400, such as 3 or 0.5.")
      }
      resolvedTimeout = timeout
    } else if let text = environment["ANNOUNCE_TIMEOUT"], !text.isEmpty {
      guard let value = Double(text), Announcement.acceptsWait(value) else {
        throw ValidationError(
          "ANNOUNCE_TIMEOUT=\(text) is not a number of seconds from 0 to 86400; set it to one, such as 3, or unset it."
        )
      }
      resolvedTimeout = value
    }
    if let delay, !Announcement.acceptsWait(delay) {
      throw ValidationError("--delay must be a number of seconds from 0 to 86400, such as 1 or 0.5.")
    }
    if let priority {
      resolvedPriority = priority
    } else if let text = environment["ANNOUNCE_PRIORITY"], !text.isEmpty {
      guard let value = SpeechPriority(rawValue: text) else {
        throw ValidationError(
          "ANNOUNCE_PRIORITY=\(text) is not a priority; use one of \(SpeechPriority.allValueStrings.joined(separator: ", ")), or unset it."
        )
      }
      resolvedPriority = value
    }
    if let maxQueue {
      guard Self.maxQueueRange.contains(maxQueue) else {
        throw ValidationError("--max-queue must be a whole number from 1 to 1000000, such as 50.")
      }
      resolvedMaxQueue = maxQueue
    } else if let text = environment["ANNOUNCE_MAX_QUEUE"], !text.isEmpty {
      guard let value = Int(text), Self.maxQueueRange.contains(value) else {
        throw ValidationError(
          "ANNOUNCE_MAX_QUEUE=\(text) is not a whole number from 1 to 1000000; set it to one, such as 50, or unset it."
        )
      }
      resolvedMaxQueue = value
    }
    if let soundIcon, !VoiceOptions.isSafeName(soundIcon) {
      throw ValidationError("--sound-icon needs the name of a sound icon, one word such as message.")
    }
  }
}

/// How the voice sounds: the options spd-say has.
struct VoiceArguments: ParsableArguments {
  @Option(
    name: [.customShort("r"), .long], parsing: .unconditional,
    help: ArgumentHelp("Speaking rate, -100 to 100 (default: ANNOUNCE_RATE).", valueName: "rate"))
  var rate: Int?

  @Option(
    name: [.customShort("p"), .long], parsing: .unconditional,
    help: ArgumentHelp("Pitch, -100 to 100.", valueName: "pitch"))
  var pitch: Int?

  @Option(
    name: [.customShort("R"), .long], parsing: .unconditional,
    help: ArgumentHelp("Pitch range, -100 to 100.", valueName: "range"))
  var pitchRange: Int?

  @Option(
    name: [.customShort("i"), .long], parsing: .unconditional,
    help: ArgumentHelp("Volume, -100 to 100.", valueName: "volume"))
  var volume: Int?

  @Option(
    name: [.customShort("l"), .long],
    help: ArgumentHelp("Language, such as en or de (default: ANNOUNCE_LANGUAGE).", valueName: "language"))
  var language: String?

  @Option(
    name: [.customShort("y"), .long],
    help: ArgumentHelp(
      "Synthesis voice, as listed by --list-voices (default: ANNOUNCE_VOICE).", valueName: "voice"))
  var voice: String?

  @Option(help: ArgumentHelp("Symbolic voice type.", valueName: "type"))
  var voiceType: VoiceOptions.VoiceType?

  @Option(
    name: [.customShort("o"), .long],
    help: ArgumentHelp("Output module, such as espeak-ng (default: ANNOUNCE_MODULE).", valueName: "module"))
  var outputModule: String?

  @Option(
    name: [.customShort("m"), .long],
    help: ArgumentHelp("How much punctuation is spoken.", valueName: "level"))
  var punctuation: VoiceOptions.Punctuation?

  @Flag(name: [.customShort("s"), .long], help: "Spell the text letter by letter.")
  var spell = false

  mutating func resolve(environment: [String: String]) throws {
    for (name, value) in [
      ("--rate", rate), ("--pitch", pitch), ("--pitch-range", pitchRange), ("--volume", volume),
    ] {
      if let value, !VoiceOptions.levelRange.contains(value) {
        throw ValidationError("\(name) must be a whole number from -100 to 100, not \(value).")
      }
    }
    if rate == nil, let text = environment["ANNOUNCE_RATE"], !text.isEmpty {
      guard let value = Int(text), VoiceOptions.levelRange.contains(value) else {
        throw ValidationError(
          "ANNOUNCE_RATE=\(text) is not a rate; set it to a whole number from -100 to 100, or unset it.")
      }
      rate = value
    }
    for (name, value) in [("--language", language), ("--voice", voice), ("--output-module", outputModule)] {
      if let value, !isSingleWord(value) {
        throw ValidationError("\(name) must be a single word, such as en or espeak-ng.")
      }
    }
    voice = try voice ?? fromEnvironment("ANNOUNCE_VOICE", environment)
    language = try language ?? fromEnvironment("ANNOUNCE_LANGUAGE", environment)
    outputModule = try outputModule ?? fromEnvironment("ANNOUNCE_MODULE", environment)
  }

  private func fromEnvironment(_ name: String, _ environment: [String: String]) throws -> String? {
    guard let text = environment[name], !text.isEmpty else { return nil }
    guard isSingleWord(text) else {
      throw ValidationError(
        "\(name)=\(text) is not a single word; set it to a name such as en or espeak-ng, or unset it.")
    }
    return text
  }

  private func isSingleWord(_ text: String) -> Bool {
    VoiceOptions.isSafeName(text)
  }

  var options: VoiceOptions {
    VoiceOptions(
      rate: rate, pitch: pitch, pitchRange: pitchRange, volume: volume, language: language,
      voiceName: voice, voiceType: voiceType, outputModule: outputModule,
      punctuation: punctuation, spell: spell)
  }
}

/// Where to connect and what to print.
struct OutputOptions: ParsableArguments {
  /// How standard input is read.
  enum InputFormat: String, ExpressibleByArgument, CaseIterable {
    case lines, json
  }

  @Option(
    help: ArgumentHelp(
      "speech-dispatcher address, as in SPEECHD_ADDRESS: unix_socket:PATH or inet_socket:HOST:PORT.",
      valueName: "address"))
  var address: String?

  @Option(
    name: [.customShort("N"), .long],
    help: ArgumentHelp("Client name shown by speech-dispatcher.", valueName: "name"))
  var appName = "announce"

  @Option(
    help: ArgumentHelp(
      "How standard input is read: one announcement per line, or one JSON object per line.",
      valueName: "format"))
  var input: InputFormat = .lines

  @Flag(name: .shortAndLong, help: "Print one plain line per event on standard error.")
  var verbose = false

  @Flag(help: "Print every event as a JSON object, one per line, on standard output.")
  var json = false

  @Flag(name: .shortAndLong, help: "Print nothing on standard error except usage errors.")
  var quiet = false

  @Flag(help: "List speech-dispatcher's output modules and exit.")
  var listModules = false

  @Flag(help: "List the synthesis voices of the chosen module and language, and exit.")
  var listVoices = false

  @Flag(
    help:
      "Check the input and the connection, then deliver in the background and exit 0 at once; outcomes go to ~/.local/state/announce/log.jsonl."
  )
  var detach = false

  /// Set in the background process that `--detach` starts; see ``Detach``.
  @Flag(name: .customLong("detached-child"), help: .private)
  var detachedChild = false

  func validate() throws {
    if detach && (listModules || listVoices) {
      throw ValidationError(
        "--detach delivers announcements; leave it out with --list-modules and --list-voices.")
    }
    if detach && (json || verbose) {
      throw ValidationError(
        "--detach returns before anything is spoken, so \(json ? "--json" : "--verbose") would print nothing; leave it out and read the outcomes in \(OutcomeLog.defaultPath(environment: Announce.environment))."
      )
    }
    if let address, SpeechdAddress.parse(address) == nil {
      throw ValidationError(
        "--address \"\(address)\" is not a speech-dispatcher address; use unix_socket:PATH or inet_socket:HOST:PORT."
      )
    }
    if verbose && quiet {
      throw ValidationError("--verbose and --quiet contradict each other; choose one.")
    }
    if appName.isEmpty || appName.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == ":" }) {
      throw ValidationError("--app-name must be one word without quotes or colons, such as announce.")
    }
  }
}

extension SpeechPriority: ExpressibleByArgument {}
extension VoiceOptions.VoiceType: ExpressibleByArgument {}
extension VoiceOptions.Punctuation: ExpressibleByArgument {}
