import AnnouncerCore

extension VoiceMismatch {
  /// How a person lists a module's voices with this command, for the end of a sentence.
  static let howToList: @Sendable (String) -> String = { module in
    "announce --list-voices -o \(module)"
  }

  /// ``sentence(howToList:)`` in the language of the locale, for a line printed for a
  /// person; each English message is the core's sentence word for word
  /// (`SpeechdConnectWordsTests` holds them to it).
  var printedSentence: String {
    EnglishOriginals.remembering(localizedSentence, english: sentence(howToList: Self.howToList))
  }

  private var localizedSentence: String {
    switch self {
    case .noModule(let name, let modules):
      // TRANSLATORS: {modules} is a list of names, such as "espeak-ng, festival and dummy".
      return localized(
        "speech-dispatcher has no output module \"{module}\"; it has {modules}.",
        ["module": name, "modules": modules.isEmpty ? localized("none") : ListWords.all(modules)])
    case .noVoice(let name, let module, let count):
      // TRANSLATORS: {command} is a command line, such as announce --list-voices -o espeak-ng.
      return localized(
        "speech-dispatcher's output module \"{module}\" has no voice \"{voice}\"; see its {count} voice with: {command}.",
        plural:
          "speech-dispatcher's output module \"{module}\" has no voice \"{voice}\"; see its {count} voices with: {command}.",
        count: count,
        [
          "module": module, "voice": name, "count": String(count),
          "command": Self.howToList(module),
        ])
    case .noLanguage(let language, let module):
      return localized(
        "speech-dispatcher's output module \"{module}\" has no voice for the language \"{language}\"; see the languages it has with: {command}.",
        ["module": module, "language": language, "command": Self.howToList(module)])
    }
  }

}
