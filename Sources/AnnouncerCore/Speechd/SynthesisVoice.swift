/// A voice speech-dispatcher can speak with.
public struct SynthesisVoice: Sendable, Equatable {
  /// The name a message gives to be spoken with this voice.
  public var name: String
  /// Its language tag.
  public var language: String
  /// Its variant, or `none`.
  public var variant: String

  /// A voice as speech-dispatcher lists it; for the tests' scripted listings.
  package init(name: String, language: String, variant: String) {
    self.name = name
    self.language = language
    self.variant = variant
  }

  /// Whether the voice speaks `wanted`: its language, ignoring case, or a more or less
  /// specific form of it (`en` for a voice of `en-US`, `de-AT` for a voice of `de`).
  package func speaks(_ wanted: String) -> Bool {
    let (available, wanted) = (language.lowercased(), wanted.lowercased())
    return available == wanted || available.hasPrefix(wanted + "-") || wanted.hasPrefix(available + "-")
  }

  /// The voices in a reply to SSIP's `LIST SYNTHESIS_VOICES`: lines of
  /// `249-name<TAB>language<TAB>variant`, ended by `249 OK VOICE LIST SENT`.
  static func parseList(_ reply: String) -> [SynthesisVoice] {
    reply.split(whereSeparator: \.isNewline).compactMap { line in
      guard line.hasPrefix("249-") else { return nil }
      let fields = line.dropFirst(4).split(separator: "\t", omittingEmptySubsequences: false)
      guard let name = fields.first, !name.isEmpty else { return nil }
      return SynthesisVoice(
        name: String(name), language: fields.count > 1 ? String(fields[1]) : "",
        variant: fields.count > 2 ? String(fields[2]) : "")
    }
  }
}
