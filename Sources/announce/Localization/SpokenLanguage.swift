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
      catalog = Self.catalog(for: explicit)
      voiceLanguage = catalog == nil && !Self.isEnglish(explicit) ? "en" : nil
      return
    }
    let asks = voiceName?.isEmpty ?? true
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    guard let locale = value("LC_ALL") ?? value("LC_MESSAGES") ?? value("LANG"),
      !Self.isC(locale)
    else { return }
    // LANGUAGE lists languages in order; gettext reads it only when the locale is not C.
    let candidates = (value("LANGUAGE")?.split(separator: ":").map(String.init) ?? []) + [locale]
    for candidate in candidates where !Self.isC(candidate) {
      if let found = Self.catalog(for: candidate) {
        catalog = found
        voiceLanguage = asks ? found.replacingBytes(of: "_", with: "-") : nil
        return
      }
      if Self.isEnglish(candidate) { break }
    }
    voiceLanguage = asks ? "en" : nil
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

  /// The catalog for a locale or language name such as `de_DE.UTF-8@euro`, `pt-BR` or
  /// `fr`: the one of its language and country, else the one of its language.
  static func catalog(for name: String) -> String? {
    let bare = name.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? ""
    let parts = bare.split(whereSeparator: { $0 == "_" || $0 == "-" })
    guard let language = parts.first?.lowercased(), !language.isEmpty else { return nil }
    if parts.count > 1 {
      let country = language + "_" + parts[1].uppercased()
      if MessageCatalogs.has(country) { return country }
    }
    return MessageCatalogs.has(language) ? language : nil
  }

  private static func isEnglish(_ name: String) -> Bool {
    name.lowercased() == "en" || name.lowercased().hasPrefix("en_") || name.lowercased().hasPrefix("en-")
      || name.lowercased().hasPrefix("en.")
  }

  private static func isC(_ name: String) -> Bool { MessageCatalogs.isC(name) }
}
