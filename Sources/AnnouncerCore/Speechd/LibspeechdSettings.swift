import CSpeechd
import Dispatch
import Glibc

/// Reads and sets a libspeechd connection's voice settings; on ``Libspeechd/queue``.
enum LibspeechdSettings {
  /// The settings a new connection holds: the daemon's defaults, including the user's
  /// `DefaultRate`, `DefaultModule` and the like. A value the daemon does not report
  /// keeps speech-dispatcher's built-in default.
  static func read(of connection: UnsafeMutablePointer<SPDConnection>) -> ConnectionSettings {
    dispatchPrecondition(condition: .onQueue(Libspeechd.queue))
    var settings = ConnectionSettings()
    func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
      guard let pointer else { return nil }
      defer { free(pointer) }
      let value = String(cString: pointer)
      return value.isEmpty ? nil : value
    }
    if let module = text(spd_get_output_module(connection)) { settings.outputModule = module }
    if let language = text(spd_get_language(connection)) { settings.language = language }
    settings.voiceType = VoiceOptions.VoiceType(spd_get_voice_type(connection))
    // The getters return the value, or -1 on failure; -1 is also a valid level, which a
    // daemon configured that way reports as the same -1, so nothing is lost.
    settings.rate = Int(spd_get_voice_rate(connection))
    settings.pitch = Int(spd_get_voice_pitch(connection))
    settings.volume = Int(spd_get_volume(connection))
    // libspeechd has no getter for the punctuation level, but SSIP answers `GET punctuation`.
    var reply: UnsafeMutablePointer<CChar>?
    if spd_execute_command_with_reply(connection, "GET punctuation", &reply) == 0, let reply {
      settings.punctuation = punctuation(inReply: String(cString: reply))
    }
    free(reply)
    return settings
  }

  /// The level in a reply to SSIP's `GET punctuation`: `251-LEVEL` and `251 OK GET RETURNED`.
  static func punctuation(inReply reply: String) -> VoiceOptions.Punctuation? {
    reply.split(whereSeparator: \.isNewline).lazy.compactMap { line in
      line.hasPrefix("251-") ? VoiceOptions.Punctuation(rawValue: String(line.dropFirst(4))) : nil
    }.first
  }

  /// Sends one `SET`; `true` when speech-dispatcher accepted it.
  static func send(_ change: SettingChange, on connection: UnsafeMutablePointer<SPDConnection>) -> Bool {
    dispatchPrecondition(condition: .onQueue(Libspeechd.queue))
    // Names go into protocol lines verbatim, so an unsafe one is refused here.
    func named(_ name: String, _ set: (String) -> Int32) -> Bool {
      VoiceOptions.isSafeName(name) && set(name) == 0
    }
    switch change {
    case .outputModule(let name): return named(name) { spd_set_output_module(connection, $0) }
    case .language(let tag): return named(tag) { spd_set_language(connection, $0) }
    case .voiceType(let type): return spd_set_voice_type(connection, type.cValue) == 0
    case .voiceName(let name): return named(name) { spd_set_synthesis_voice(connection, $0) }
    case .rate(let value): return spd_set_voice_rate(connection, Int32(value)) == 0
    case .pitch(let value): return spd_set_voice_pitch(connection, Int32(value)) == 0
    case .volume(let value): return spd_set_volume(connection, Int32(value)) == 0
    case .pitchRange(let value): return spd_set_voice_pitch_range(connection, Int32(value)) == 0
    case .punctuation(let level): return spd_set_punctuation(connection, level.cValue) == 0
    case .spelling(let on): return spd_set_spelling(connection, on ? SPD_SPELL_ON : SPD_SPELL_OFF) == 0
    }
  }
}
