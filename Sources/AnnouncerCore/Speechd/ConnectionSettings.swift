/// The voice settings a speech-dispatcher connection holds for the next message sent on it.
///
/// speech-dispatcher keeps every `SET` on the connection until it is changed again, and a
/// new connection starts from the daemon's defaults. A message is spoken with whatever the
/// connection holds when it is sent, so before each message the client makes the connection
/// hold exactly that message's settings: a field the announcement leaves out gets the
/// default the connection had when it was opened, never the value an earlier message set.
package struct ConnectionSettings: Sendable, Equatable {
  /// The output module.
  package var outputModule: String
  /// The language tag.
  package var language: String
  /// The symbolic voice type; `nil` once a synthesis voice is chosen (speech-dispatcher then
  /// forgets the type) or when the daemon did not report one.
  package var voiceType: VoiceOptions.VoiceType?
  /// The synthesis voice; `nil` means the module's voice for the language and type.
  package var voiceName: String?
  /// Rate, pitch and volume, −100 to 100.
  package var rate: Int
  /// Pitch, −100 to 100.
  package var pitch: Int
  /// Volume, −100 to 100.
  package var volume: Int
  /// Pitch range, or `nil` for the daemon's own default. SSIP cannot read the pitch range back,
  /// so once one was set, "the default" is sent as 0, speech-dispatcher's built-in default.
  package var pitchRange: Int?
  /// Punctuation level, or `nil` for the daemon's own default (when it could not be read).
  package var punctuation: VoiceOptions.Punctuation?
  /// Whether text is spelled out.
  package var spell: Bool

  /// Settings with speech-dispatcher's built-in defaults, for tests and as a fallback.
  package init(
    outputModule: String = "espeak-ng", language: String = "en", voiceType: VoiceOptions.VoiceType? = .male1,
    voiceName: String? = nil, rate: Int = 0, pitch: Int = 0, volume: Int = 100, pitchRange: Int? = nil,
    punctuation: VoiceOptions.Punctuation? = nil, spell: Bool = false
  ) {
    self.outputModule = outputModule
    self.language = language
    self.voiceType = voiceType
    self.voiceName = voiceName
    self.rate = rate
    self.pitch = pitch
    self.volume = volume
    self.pitchRange = pitchRange
    self.punctuation = punctuation
    self.spell = spell
  }

  /// The settings a message asking for `voice` is spoken with, on a connection whose
  /// defaults (what it held when opened) are `self`.
  package func resolving(_ voice: VoiceOptions) -> ConnectionSettings {
    var result = self
    result.outputModule = voice.outputModule ?? outputModule
    result.language = voice.language ?? language
    result.voiceType = voice.voiceType ?? voiceType
    result.voiceName = voice.voiceName
    if voice.voiceName != nil { result.voiceType = nil }
    result.rate = voice.rate ?? rate
    result.pitch = voice.pitch ?? pitch
    result.volume = voice.volume ?? volume
    result.pitchRange = voice.pitchRange ?? pitchRange
    result.punctuation = voice.punctuation ?? punctuation
    result.spell = voice.spell
    return result
  }

  /// The calls that make a connection that holds `current` (or something unknown, `nil`)
  /// hold `self`.
  ///
  /// When anything differs, every setting is sent again, in speech-dispatcher's order of
  /// dependence: the module first (setting it forgets the synthesis voice), then the
  /// language, the voice type (which also forgets the synthesis voice) and the synthesis
  /// voice last. A few protocol round trips per change of voice cost well under a
  /// millisecond on a local socket; a message whose settings did not change costs none.
  package func changes(from current: ConnectionSettings?) -> [SettingChange] {
    if current == self { return [] }
    var result: [SettingChange] = [.outputModule(outputModule), .language(language)]
    if let voiceType { result.append(.voiceType(voiceType)) }
    if let voiceName { result.append(.voiceName(voiceName)) }
    result += [.rate(rate), .pitch(pitch), .volume(volume)]
    if let pitchRange {
      result.append(.pitchRange(pitchRange))
    } else if current?.pitchRange != nil {
      result.append(.pitchRange(0))
    }
    if let punctuation { result.append(.punctuation(punctuation)) }
    result.append(.spelling(spell))
    return result
  }
}

/// What a connection holds, as far as its client knows.
///
/// The daemon's defaults are read only when a message needs them: a connection that was
/// never changed already holds them, so a message that asks for no setting of its own is
/// sent as it is. That spares the seven `GET`s of every plain run (one protocol round
/// trip each, through libspeechd's byte-at-a-time reader).
package enum HeldSettings: Sendable, Equatable {
  /// Nothing was set since the connection was opened: it holds the daemon's defaults.
  case asOpened
  /// Exactly these settings.
  case known(ConnectionSettings)
  /// Not known: after a refused `SET`.
  case unknown

  /// Whether the daemon's defaults must be known to send a message asking for `voice`.
  package func needsDefaults(for voice: VoiceOptions) -> Bool {
    !(self == .asOpened && voice == VoiceOptions())
  }

  /// The settings held, given the daemon's `defaults`; `nil` when not known.
  package func settings(defaults: ConnectionSettings) -> ConnectionSettings? {
    switch self {
    case .asOpened: defaults
    case .known(let settings): settings
    case .unknown: nil
    }
  }
}

/// One `SET` speech-dispatcher is sent for the connection.
package enum SettingChange: Sendable, Equatable {
  case outputModule(String)
  case language(String)
  case voiceType(VoiceOptions.VoiceType)
  case voiceName(String)
  case rate(Int)
  case pitch(Int)
  case volume(Int)
  case pitchRange(Int)
  case punctuation(VoiceOptions.Punctuation)
  case spelling(Bool)

  /// What was being set, for a message to people, such as `the rate 100`.
  package var phrase: String {
    switch self {
    case .outputModule(let name): "the output module \"\(name)\""
    case .language(let tag): "the language \"\(tag)\""
    case .voiceType(let type): "the voice type \(type.rawValue)"
    case .voiceName(let name): "the voice \"\(name)\""
    case .rate(let value): "the rate \(value)"
    case .pitch(let value): "the pitch \(value)"
    case .volume(let value): "the volume \(value)"
    case .pitchRange(let value): "the pitch range \(value)"
    case .punctuation(let level): "the punctuation level \(level.rawValue)"
    case .spelling(let on): on ? "spelling" : "no spelling"
    }
  }
}
