/// What speech-dispatcher can list: its output modules and each module's voices.
///
/// A list that cannot be read whole (the daemon stopped answering, or went away) is an
/// error, never a shorter or empty list.
package protocol VoiceListing: Sendable {
  /// The module a message that names none is spoken with.
  func defaultOutputModule() async throws(SpeechdConnectError) -> String
  /// The output modules.
  func outputModules() async throws(SpeechdConnectError) -> [String]
  /// The voices of `module` (the default one when `nil`), in every language; empty when it lists none.
  func synthesisVoices(module: String?) async throws(SpeechdConnectError) -> [SynthesisVoice]
}

/// The names speech-dispatcher knows, asked once per run (the voices once per module),
/// so that an unknown output module, voice or language is refused instead of being
/// spoken with some other voice.
///
/// A module that lists no voices (generic modules such as `sd_generic` list none) cannot
/// be checked, so any voice and language are accepted for it; the same holds when the
/// daemon lists no modules. A list that could not be read is not remembered: the next
/// question asks again.
package actor VoiceCatalog {
  private let listing: any VoiceListing
  private let howToList: @Sendable (_ module: String) -> String
  private var modules: [String]?
  private var voicesByModule: [String: [SynthesisVoice]] = [:]
  private var defaultModule: String?

  /// A catalog that asks `listing` the first time it needs to know.
  ///
  /// - Parameter howToList: how a person lists a module's voices, for the end of a
  ///   sentence; the library knows no command line, so its caller says.
  package init(
    _ listing: any VoiceListing,
    howToList: @escaping @Sendable (_ module: String) -> String = { _ in
      "ask speech-dispatcher for its voices"
    }
  ) {
    self.listing = listing
    self.howToList = howToList
  }

  /// Why speech-dispatcher cannot speak with `voice`, as one sentence; `nil` when it can.
  ///
  /// A language is accepted when some voice of the module has it, ignoring case, or has
  /// a more or less specific form of it: `en` is accepted for a module with `en-US`, and
  /// `de-AT` for a module with `de`.
  ///
  /// - Throws: ``SpeechdConnectError`` when a list it needs cannot be read.
  package func problem(with voice: VoiceOptions) async throws(SpeechdConnectError) -> String? {
    try await mismatch(with: voice)?.sentence(howToList: howToList)
  }

  /// Why speech-dispatcher cannot speak with `voice`, as a kind a caller words in its
  /// own language; `nil` when it can. The same check as ``problem(with:)``.
  ///
  /// - Throws: ``SpeechdConnectError`` when a list it needs cannot be read.
  package func mismatch(with voice: VoiceOptions) async throws(SpeechdConnectError) -> VoiceMismatch? {
    if let module = voice.outputModule {
      let modules = try await allModules()
      if !modules.isEmpty, !modules.contains(module) { return .noModule(module, modules: modules) }
    }
    guard voice.voiceName != nil || voice.language != nil else { return nil }
    let module = try await resolved(voice.outputModule)
    let voices = try await voices(of: module)
    guard !voices.isEmpty else { return nil }
    if let name = voice.voiceName {
      if !voices.contains(where: { $0.name == name }) {
        return .noVoice(name, module: module, voiceCount: voices.count)
      }
      return nil
    }
    if let language = voice.language,
      !voices.contains(where: { $0.speaks(language) })
    {
      return .noLanguage(language, module: module)
    }
    return nil
  }

  private func allModules() async throws(SpeechdConnectError) -> [String] {
    if let modules { return modules }
    let listed = try await listing.outputModules()
    modules = listed
    return listed
  }

  private func voices(of module: String) async throws(SpeechdConnectError) -> [SynthesisVoice] {
    if let voices = voicesByModule[module] { return voices }
    let listed = try await listing.synthesisVoices(module: module)
    voicesByModule[module] = listed
    return listed
  }

  /// The voices of `module` (the default one when `nil`) that speak `language` (all when
  /// `nil`), from the list this catalog already asked for when it has one.
  ///
  /// - Throws: ``SpeechdConnectError`` when the list cannot be read.
  package func voices(
    of module: String?, speaking language: String?
  ) async throws(SpeechdConnectError) -> [SynthesisVoice] {
    try await voices(of: resolved(module)).filter { voice in language.map(voice.speaks) ?? true }
  }

  /// `module`, or the module a message that names none is spoken with.
  private func resolved(_ module: String?) async throws(SpeechdConnectError) -> String {
    if let module { return module }
    if let defaultModule { return defaultModule }
    let found = try await listing.defaultOutputModule()
    defaultModule = found
    return found
  }
}
