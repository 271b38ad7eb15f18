/// Why speech-dispatcher cannot speak with the voice options asked for, as
/// ``VoiceCatalog`` finds it; ``sentence(howToList:)`` says it in English.
package enum VoiceMismatch: Sendable, Equatable {
  /// speech-dispatcher has no output module of this name; `modules` are the ones it has.
  case noModule(String, modules: [String])
  /// The module has no voice of this name; it has `voiceCount` voices.
  case noVoice(String, module: String, voiceCount: Int)
  /// No voice of the module speaks this language.
  case noLanguage(String, module: String)

  /// The mismatch as one sentence naming the fix, in English; `howToList` says how a
  /// person lists a module's voices.
  package func sentence(howToList: (_ module: String) -> String) -> String {
    switch self {
    case .noModule(let name, let modules):
      "speech-dispatcher has no output module \"\(name)\"; it has \(Self.list(modules))."
    case .noVoice(let name, let module, let count):
      "speech-dispatcher's output module \"\(module)\" has no voice \"\(name)\"; "
        + "see its \(count) \(count == 1 ? "voice" : "voices") with: \(howToList(module))."
    case .noLanguage(let language, let module):
      "speech-dispatcher's output module \"\(module)\" has no voice for the language \"\(language)\"; "
        + "see the languages it has with: \(howToList(module))."
    }
  }

  /// `a`, `a and b`, `a, b and c`.
  private static func list(_ names: [String]) -> String {
    guard let last = names.last else { return "none" }
    let rest = names.dropLast()
    return rest.isEmpty ? last : rest.joined(separator: ", ") + " and " + last
  }
}
