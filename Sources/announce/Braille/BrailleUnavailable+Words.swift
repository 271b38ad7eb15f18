import AnnouncerCore

extension BrailleUnavailable {
  /// ``message`` in the language of the locale, for a line printed for a person. The
  /// core knows no gettext, so its kinds are worded here; each English message is the
  /// core's word for word (`SpeechdConnectWordsTests` holds them to it), and the outcome log
  /// records the core's English. libbrlapi's own reason stays as it says it.
  var printedMessage: String {
    EnglishOriginals.remembering(localizedMessage, english: message)
  }

  private var localizedMessage: String {
    switch self {
    case .libraryMissing(let fileName):
      return localized(
        "Braille is not available because {file} is not installed; install the libbrlapi0.8 and brltty packages.",
        ["file": fileName])
    case .noThread:
      return localized("Braille is not available because no thread could be started for it.")
    case .notAnswering(let address):
      // TRANSLATORS: {address} is where brltty listens, such as "BrlAPI host :0".
      return localized(
        "Braille is not available because brltty at {address} does not answer; check that it is running and not stopped, or set BRLAPI_HOST to another one.",
        ["address": address])
    case .lost(let address):
      return localized(
        "The braille display went away because brltty at {address} stopped or closed the connection; check brltty's log and start it again.",
        ["address": address])
    case .noMemory(let address):
      return localized(
        "Braille is not available at {address} because there is no memory for a connection; start brltty with a braille display, or set BRLAPI_HOST to where one listens.",
        ["address": address])
    case .unreachable(let address, let reason):
      // TRANSLATORS: {reason} is libbrlapi's own, in English.
      return localized(
        "Braille is not available at {address} because brltty cannot be reached there ({reason}); start brltty with a braille display, or set BRLAPI_HOST to where one listens.",
        ["address": address, "reason": reason])
    case .connectionLost(let address):
      return localized(
        "Braille is not available at {address} because the connection was lost; start brltty with a braille display, or set BRLAPI_HOST to where one listens.",
        ["address": address])
    case .cannotAttach(let address, let reason):
      return localized(
        "Braille is not available at {address} because it could not attach to this session's terminal ({reason}); start brltty with a braille display, or set BRLAPI_HOST to where one listens.",
        ["address": address, "reason": reason])
    case .noDisplay(let address):
      return localized(
        "Braille is not available at {address} because brltty has no braille display; start brltty with a braille display, or set BRLAPI_HOST to where one listens.",
        ["address": address])
    }
  }
}
