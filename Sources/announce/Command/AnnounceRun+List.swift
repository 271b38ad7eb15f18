import AnnouncerCore

extension AnnounceRun {
  /// `--list-modules` and `--list-voices`: the names go to standard output, one a line. A
  /// list cut short is an error, never a shorter list, and an empty one is no success either.
  func list(modules: Bool, voices: Bool) async throws(RunFailure) {
    let client = try await reachSpeechd()
    let listed: Result<Void, RunFailure>
    do {
      try await list(modules: modules, voices: voices, from: SpeechdLists(address: client.address))
      listed = .success(())
    } catch {
      listed = .failure(error)
    }
    await client.close()
    try listed.get()
  }

  private func list(modules: Bool, voices: Bool, from lists: SpeechdLists) async throws(RunFailure) {
    if modules {
      let names: [String]
      do { names = try await lists.outputModules() } catch { throw RunFailure(connecting: error) }
      guard !names.isEmpty else {
        throw .serviceUnavailable(
          localized(
            "speech-dispatcher at {address} lists no output modules, so it cannot speak; install one, such as the package speech-dispatcher-espeak-ng, and start it again.",
            ["address": AddressCheck.printed(lists.address)]))
      }
      for module in names { print(module) }
    }
    if voices {
      // The check made before speaking: an unknown module or language is a usage error.
      let catalog = VoiceCatalog(lists, howToList: VoiceMismatch.howToList)
      let voice = request.defaults.voice
      let asked = VoiceOptions(language: voice.language, outputModule: voice.outputModule)
      let problem: String?
      let found: [SynthesisVoice]
      do {
        problem = try await catalog.mismatch(with: asked)?.printedSentence
        found =
          problem == nil ? try await catalog.voices(of: voice.outputModule, speaking: voice.language) : []
      } catch {
        throw RunFailure(connecting: error)
      }
      if let problem { throw .usage(problem) }
      guard !found.isEmpty else {
        throw .serviceUnavailable(
          voice.outputModule.map {
            localized(
              "speech-dispatcher's output module \"{module}\" lists no voices, so none can be chosen by name; it speaks with the voice its own configuration sets.",
              ["module": $0])
          }
            ?? localized(
              "speech-dispatcher's default output module lists no voices, so none can be chosen by name; it speaks with the voice its own configuration sets."
            ))
      }
      for voice in found { print("\(voice.name)\t\(voice.language)\t\(voice.variant)") }
    }
  }
}
