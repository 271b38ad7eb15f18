import AnnouncerCore

extension SpeechdConnectError {
  /// ``sentence(forwardingWith:)`` in the language of the locale, for a line printed for
  /// a person. The core knows no gettext, so its failure kinds are worded here; each
  /// English message is the core's sentence word for word (`SpeechdConnectWordsTests`
  /// holds them to it), and the outcome log records the core's English.
  var printedSentence: String {
    EnglishOriginals.remembering(
      localizedSentence, english: sentence(forwardingWith: RunFailure.howToForward))
  }

  private var localizedSentence: String {
    // TRANSLATORS: how a person forwards speech-dispatcher over SSH, at the end of a sentence.
    let forward = localized("the lines of announce init ssh")
    let reason = libspeechdReason ?? ""
    switch self {
    case .invalidAddress(let text, let source):
      // TRANSLATORS: {source} is SPEECHD_ADDRESS or an option such as --address.
      return localized(
        "{source} \"{text}\" is not a speech-dispatcher address; use unix_socket:PATH or inet_socket:HOST:PORT.",
        ["source": source, "text": OneLine.escaped(text)])
    case .unreachable(let address, _) where address.isUserDefault:
      return localized(
        "announce could not reach speech-dispatcher at {address}: {reason}; install the speech-dispatcher package or start speech-dispatcher, then try again.",
        ["address": AddressCheck.printed(address), "reason": reason])
    case .unreachable(let address, _):
      return localized(
        "announce could not reach speech-dispatcher at {address}: {reason}; start speech-dispatcher at that address, or correct the address or SPEECHD_ADDRESS.",
        ["address": AddressCheck.printed(address), "reason": reason])
    case .notAnswering(let address, let bound):
      return localized(
        "speech-dispatcher at {address} is listening but did not answer within {duration}, so it is probably stopped or frozen; resume a stopped one with kill -CONT, or kill it and start it again.",
        ["address": AddressCheck.printed(address), "duration": Self.printedSeconds(bound)])
    case .notAccepting(let address, let bound) where address.socketPath == nil:
      return localized(
        "speech-dispatcher at {address} does not accept connections (none within {duration}), so it is stopped or hung, or a firewall drops them; resume a stopped one with kill -CONT, or kill it and start it again.",
        ["address": AddressCheck.printed(address), "duration": Self.printedSeconds(bound)])
    case .notAccepting(let address, let bound):
      return localized(
        "speech-dispatcher at {address} does not accept connections (none within {duration}), so it is stopped or hung; resume a stopped one with kill -CONT, or kill it and start it again.",
        ["address": AddressCheck.printed(address), "duration": Self.printedSeconds(bound)])
    case .nameDoesNotResolve(let address):
      return localized(
        "announce could not reach speech-dispatcher at {address}, because that host name does not resolve; correct the host name in the address or SPEECHD_ADDRESS.",
        ["address": AddressCheck.printed(address)])
    case .lookupTookTooLong(let address, let bound):
      return localized(
        "announce could not reach speech-dispatcher at {address}, because looking up that host name took longer than {duration}; check the name servers in /etc/resolv.conf, or write the host's IP address in the address or SPEECHD_ADDRESS.",
        ["address": AddressCheck.printed(address), "duration": Self.printedSeconds(bound)])
    case .forwardHung(let path, acceptsConnections: true):
      return localized(
        "announce found a speech-dispatcher socket forwarded over SSH at {path}, but nothing answers through it, so the SSH session behind it, or speech-dispatcher on your own machine, is stopped or hung; end that session and log in again with {forward}, or set SPEECHD_ADDRESS.",
        ["path": OneLine.escaped(path), "forward": forward])
    case .forwardHung(let path, acceptsConnections: false):
      return localized(
        "announce found a speech-dispatcher socket forwarded over SSH at {path}, but it does not accept connections, so the SSH session behind it is stopped or hung; end that session and log in again with {forward}, or set SPEECHD_ADDRESS.",
        ["path": OneLine.escaped(path), "forward": forward])
    case .staleForward(let path, removed: true):
      return localized(
        "announce found a speech-dispatcher socket forwarded over SSH at {path}, but nothing answers there because the SSH session that forwarded it has ended (announce removed it); log in again with {forward}, or set SPEECHD_ADDRESS.",
        ["path": OneLine.escaped(path), "forward": forward])
    case .staleForward(let path, removed: false):
      return localized(
        "announce found a speech-dispatcher socket forwarded over SSH at {path}, but nothing answers there because the SSH session that forwarded it has ended; log in again with {forward}, or set SPEECHD_ADDRESS.",
        ["path": OneLine.escaped(path), "forward": forward])
    case .nothingForwarded(let forwardedPath, let local, _):
      return localized(
        "announce found no speech-dispatcher socket forwarded over SSH at {path} and could not reach speech-dispatcher at {address}: {reason}; forward the one on your own machine with {forward}, or start speech-dispatcher here.",
        [
          "path": OneLine.escaped(forwardedPath), "address": AddressCheck.printed(local), "reason": reason,
          "forward": forward,
        ])
    }
  }

  /// A bound such as "2 seconds" or "1.5 seconds" in the language of the locale.
  private static func printedSeconds(_ bound: Duration) -> String {
    let (seconds, tenths) = secondsAndTenths(bound)
    return NumberWords.seconds(Double(seconds) + Double(tenths) / 10)
  }
}
