import AnnouncerCore

/// The language of the sentences announce speaks itself (the hooks' sentences, tmux
/// alerts, the flood summary, `--when-done`, replay's and doctor's sentences), and the
/// language it asks speech-dispatcher for, so that the voice matches the words.
///
/// - With `--language` or `ANNOUNCE_LANGUAGE`, the sentences are in that language, which
///   the voice already speaks.
/// - Otherwise they follow the locale, in gettext's order (`LANGUAGE`, `LC_ALL`,
///   `LC_MESSAGES`, `LANG`), and the voice is asked for the same language, as spd-say
///   does: speech-dispatcher's own default stays en-US under any locale (measured with
///   0.11.4). Not when the user chose a voice, and not under the C or POSIX locale,
///   which say today's English sentences with the daemon's default voice.
/// - A voice never reads words of another language: a sentence that falls back to
///   English because no catalog has its language is spoken with the language English.
struct SpokenLanguage: Equatable {
  /// The catalog the sentences come from, such as `de` or `pt_BR`; `nil` for English.
  var catalog: String?
  /// The language the voice is asked for; `nil` leaves it as the user set it.
  var voiceLanguage: String?

  /// A language from its parts; by default English, with the voice left alone.
  init(catalog: String? = nil, voiceLanguage: String? = nil) {
    self.catalog = catalog
    self.voiceLanguage = voiceLanguage
  }

  /// The sentence-maker of this language.
  var wording: Wording { catalog.map(Wording.language) ?? .english }

  /// The language for `explicit`, the value of `--language` or `ANNOUNCE_LANGUAGE`, and
  /// `voiceName`, the chosen voice, under the locale in `environment`.
  init(explicit: String?, voiceName: String?, environment: [String: String]) {
    if let explicit, !explicit.isEmpty {
      catalog = LanguageName.catalog(for: explicit)
      voiceLanguage = catalog == nil && !LanguageName.isEnglish(explicit) ? "en" : nil
      return
    }
    let asks = voiceName?.isEmpty ?? true
    switch LocaleLanguage(environment: environment) {
    case .c: return
    case .catalog(let found):
      catalog = found
      voiceLanguage = asks ? found.replacingBytes(of: "_", with: "-") : nil
    case .other: voiceLanguage = asks ? "en" : nil
    }
  }

  /// The language of a request's own sentences: its language and voice, under its locale.
  init(for request: AnnounceRequest) {
    self.init(
      explicit: request.defaults.voice.language, voiceName: request.defaults.voice.voiceName,
      environment: request.connection.environment)
  }

  /// The language of the hooks' sentences, from the `ANNOUNCE_` variables in `environment`.
  init(environment: [String: String]) {
    self.init(
      explicit: Settings.language.variable.flatMap { environment[$0] },
      voiceName: Settings.voice.variable.flatMap { environment[$0] }, environment: environment)
  }

  /// `request` with its voice asked for this language, for a sentence of announce's own.
  func applied(to request: AnnounceRequest) -> AnnounceRequest {
    var request = request
    if let voiceLanguage { request.defaults.voice.language = voiceLanguage }
    return request
  }

  /// The words of flood control's summary, "12 messages skipped", in this language.
  var floodSummary: SummaryWording {
    let wording = self.wording
    return SummaryWording(language: voiceLanguage) { count in
      wording.localized("{count} message skipped", plural: "{count} messages skipped", count: count)
        .replacingBytes(of: "{count}", with: String(count))
    }
  }
}
