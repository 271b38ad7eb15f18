import AnnouncerCore
import ArgumentParser

/// Every setting of an announcement, each declared once: its option, range, default,
/// environment variable, JSON field, history record field, help, and where it goes in
/// an announcement.
///
/// Both the command line (`Command/Options.swift`) and the history (`History/`) read this
/// table, which belongs to neither: it is the one description of each setting in every
/// form.
///
/// To add one: declare it here; give it a property in its group in
/// `Command/Options.swift`, `@Option(Settings.name) var name: Type?`; and list the two in
/// the group's `properties`. Parsing, validation, the environment, `--input json`, the history,
/// `announce replay`, `--help` and the command line's announcement then all have it. A
/// JSON key is all a setting needs to be a field of `--input json`; a variable, all it
/// needs to be read from the environment; a `record` field, all it needs to be kept in
/// the history and spoken again the same way by a replay. Tests fail when an option is missing from `--help` or the man page, or
/// a JSON field or variable from the README or the man page.
enum Settings {
  static let timeout = Setting<Double>(
    option: "timeout", short: "t", valueName: "seconds",
    summary: "Retry window in seconds, counted from the first attempt; 0 means no retry",
    rule: .seconds, defaultText: "\(Announcement.defaultRetryTimeout.components.seconds)",
    variable: "ANNOUNCE_TIMEOUT", jsonKey: "timeout"
  ) { $0.retryTimeout = .seconds($1) }

  static let delay = Setting<Double>(
    option: "delay", valueName: "seconds", summary: "Seconds to wait before the first attempt",
    rule: .seconds, defaultText: JSONValue.numberText(Announcement("").delay.seconds), jsonKey: "delay"
  ) { $0.delay = .seconds($1) }

  static let priority = Setting<SpeechPriority>(
    option: "priority", short: "P", valueName: "priority",
    summary: "speech-dispatcher priority of every attempt",
    rule: .choice, defaultText: Announcement("").priority.rawValue, variable: "ANNOUNCE_PRIORITY",
    jsonKey: "priority", record: .init("priority") { $0.priority }
  ) { $0.priority = $1 }

  static let soundIcon = Setting<String>(
    option: "sound-icon", short: "I", valueName: "name",
    summary:
      "Play this sound icon before each attempt, such as \"message\" from the sound-icons package",
    rule: .word(example: "message"), record: .init("soundIcon") { $0.soundIcon }
  ) { $0.soundIcon = $1 }

  static let ssml = Setting<Bool>(
    option: "ssml", short: "x",
    summary: "TEXT is SSML; it must be well-formed XML with a <speak> root",
    rule: .boolean, jsonKey: "ssml", record: .init("ssml") { $0.isSSML ? true : nil }
  ) { $0.isSSML = $1 }

  static let restart = Setting<Bool>(
    option: "restart",
    summary:
      "A retry repeats the whole text; by default a retry of plain text resumes at the sentence that was cut off",
    rule: .boolean
  ) { $0.resume = !$1 }

  /// `--restart`'s opposite, for one line of `--input json`: `"resume": false` restarts.
  static let resume = Setting<Bool>(
    summary: "Whether a retry resumes at the sentence that was cut off",
    rule: .boolean, jsonKey: "resume"
  ) { $0.resume = $1 }

  static let maxQueue = Setting<Int>(
    option: "max-queue", valueName: "count",
    summary:
      "At most this many announcements wait; when more arrive, the oldest waiting ones are skipped and a summary is spoken",
    rule: .wholeNumber(in: AnnouncerOptions.maxQueueRange, example: AnnouncerOptions.defaultMaxQueue),
    defaultText: "\(AnnouncerOptions.defaultMaxQueue)",
    variable: "ANNOUNCE_MAX_QUEUE")

  static let whenDone = Setting<Int>(
    option: "when-done", valueName: "pid",
    summary:
      "Wait until process PID ends, then speak TEXT, or by default a sentence naming the process and how long it ran",
    rule: .processID, completion: .shellCommand("ps -o pid= -u \"$(id -u)\""))

  static let rate = Setting<Int>(
    option: "rate", short: "r", valueName: "rate", summary: "Speaking rate", rule: .level,
    variable: "ANNOUNCE_RATE", jsonKey: "rate", record: .init("rate") { $0.voice.rate }
  ) { $0.voice.rate = $1 }

  static let pitch = Setting<Int>(
    option: "pitch", short: "p", valueName: "pitch", summary: "Pitch", rule: .level, jsonKey: "pitch",
    record: .init("pitch") { $0.voice.pitch }
  ) { $0.voice.pitch = $1 }

  static let pitchRange = Setting<Int>(
    option: "pitch-range", short: "R", valueName: "range", summary: "Pitch range", rule: .level,
    record: .init("pitchRange") { $0.voice.pitchRange }
  ) { $0.voice.pitchRange = $1 }

  static let volume = Setting<Int>(
    option: "volume", short: "i", valueName: "volume", summary: "Volume", rule: .level, jsonKey: "volume",
    record: .init("volume") { $0.voice.volume }
  ) { $0.voice.volume = $1 }

  static let language = Setting<String>(
    option: "language", short: "l", valueName: "language", summary: "Language, such as en or de",
    rule: .languageName, variable: "ANNOUNCE_LANGUAGE", jsonKey: "language",
    record: .init("language") { $0.voice.language }
  ) { $0.voice.language = LanguageName.normalized($1) ?? $1 }

  static let voice = Setting<String>(
    option: "voice", short: "y", valueName: "voice",
    summary: "Synthesis voice, as listed by --list-voices", rule: .word(example: "Alex"),
    variable: "ANNOUNCE_VOICE", jsonKey: "voice", record: .init("voice") { $0.voice.voiceName }
  ) { $0.voice.voiceName = $1 }

  static let voiceType = Setting<VoiceOptions.VoiceType>(
    option: "voice-type", valueName: "type", summary: "Symbolic voice type", rule: .choice,
    record: .init("voiceType") { $0.voice.voiceType }
  ) { $0.voice.voiceType = $1 }

  static let outputModule = Setting<String>(
    option: "output-module", short: "o", valueName: "module", summary: "Output module, such as espeak-ng",
    rule: .word(example: "espeak-ng"), variable: "ANNOUNCE_MODULE",
    record: .init("outputModule") { $0.voice.outputModule }
  ) { $0.voice.outputModule = $1 }

  static let punctuation = Setting<VoiceOptions.Punctuation>(
    option: "punctuation", short: "m", valueName: "level", summary: "How much punctuation is spoken",
    rule: .choice, record: .init("punctuation") { $0.voice.punctuation }
  ) { $0.voice.punctuation = $1 }

  static let spell = Setting<Bool>(
    option: "spell", short: "s", summary: "Spell the text letter by letter",
    rule: .boolean, record: .init("spell") { $0.voice.spell ? true : nil }
  ) { $0.voice.spell = $1 }

  /// Every setting, in the order of `--help`, and the JSON fields that no option has; a
  /// line of `--input json` reads its fields in this order, so that of two bad fields it
  /// names the same one each time.
  static let all: [any AnySetting] =
    AnnouncerOptions.properties.map(\.setting) + [resume] + VoiceArguments.properties.map(\.setting)

  /// The settings a history record keeps, in the order of its fields: what makes a
  /// replay sound as the announcement did. How hard and when it was tried are left out,
  /// since a replay is tried as the hooks' announcements are.
  static let recorded = all.filter { $0.recordKey != nil }

  /// The announcement that the variables of `environment` make, as for a command line
  /// without options; throws the command line's usage error for a variable that is not valid.
  static func announcement(environment: [String: String]) throws -> Announcement {
    var announcement = Announcement("")
    for setting in all {
      try setting.change(fromEnvironment: environment)?(&announcement)
    }
    return announcement
  }
}
