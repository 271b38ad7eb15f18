import AnnouncerCore

/// The core's name of the speech service, its address with ", forwarded over SSH from
/// your own machine" when speech goes over an SSH forward, in a language: the core
/// knows no catalogs, so its words are said here.
enum SpeechServiceWords {
  /// `service` with the core's English words in `wording`'s language; the English is
  /// remembered for the log (``EnglishOriginals``).
  static func printed(_ service: String, in wording: Wording = .printed) -> String {
    guard service.hasSuffix(Announcer.forwardedOverSSH) else { return service }
    let address = service.utf8.dropLast(Announcer.forwardedOverSSH.utf8.count)
    let text =
      String(decoding: address, as: UTF8.self)
      + wording.localized(", forwarded over SSH from your own machine")
    return EnglishOriginals.remembering(text, english: service)
  }
}
