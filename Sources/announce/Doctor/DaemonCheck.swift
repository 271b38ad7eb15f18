import AnnouncerCore

/// Check 2: whether speech-dispatcher answers at the address within 2 seconds, and
/// which output module and language a new connection gets.
struct DaemonCheck {
  /// How long the daemon may say nothing before it counts as not answering: the bound
  /// an unanswered message is given when speaking.
  static let answerBound: Duration = .seconds(2)

  /// What the check found, for the checks after it.
  enum Result: Equatable {
    /// It answered.
    case answers
    /// Nothing listens at the user's default socket, where announce starts the daemon
    /// when it speaks; the spoken test tries that.
    case notStartedYet
    /// It cannot be heard.
    case unavailable
  }

  var address: SpeechdAddress
  /// Whether the address is a socket forwarded over SSH, whose fix lies on the user's own machine.
  var isForwarded = false

  func run() async -> (line: DoctorLine, result: Result) {
    do {
      let defaults = try await SpeechdVoiceDefaults.read(at: address, within: Self.answerBound)
      let said =
        defaults.language.isEmpty
        ? localized(
          "speech-dispatcher answers, and speaks with the output module {module}.",
          ["module": defaults.outputModule])
        : localized(
          "speech-dispatcher answers, and speaks with the output module {module} in the language {language}.",
          ["module": defaults.outputModule, "language": defaults.language])
      return (
        DoctorLine(
          check: "daemon", finding: .fine, said: said,
          facts: [("module", .text(defaults.outputModule)), ("language", .text(defaults.language))]),
        .answers
      )
    } catch {
      switch error {
      case .unreachable where address.isUserDefault:
        return (
          DoctorLine(
            check: "daemon", finding: .fine,
            said: localized(
              "speech-dispatcher is not running yet; announce starts it when it speaks, as the test sentence will show."
            )
          ),
          .notStartedYet
        )
      case .unreachable where isForwarded:
        return (
          DoctorLine(
            check: "daemon", finding: .speechUnavailable,
            said: localized(
              "Nothing listens at {address}, the socket forwarded over SSH; log in again with {forward}, and check that speech-dispatcher runs on your own machine.",
              [
                "address": AddressCheck.printed(address),
                "forward": localized("the lines of announce init ssh"),
              ])
          ),
          .unavailable
        )
      case .unreachable:
        return (
          DoctorLine(
            check: "daemon", finding: .speechUnavailable,
            said: localized(
              "Nothing listens at {address}; start speech-dispatcher there, or correct --address or SPEECHD_ADDRESS.",
              ["address": AddressCheck.printed(address)])
          ),
          .unavailable
        )
      case .notAccepting where isForwarded, .notAnswering where isForwarded:
        // The daemon is on the user's own machine; what stopped is the session in between.
        var accepts = false
        if case .notAnswering = error { accepts = true }
        let hung = SpeechdConnectError.forwardHung(
          path: address.socketPath ?? "\(address)", acceptsConnections: accepts)
        return (
          DoctorLine(
            check: "daemon", finding: .speechUnavailable,
            sentence: hung.sentence(forwardingWith: RunFailure.howToForward).capitalizedFirst,
            printed: hung.printedSentence.capitalizedFirst),
          .unavailable
        )
      default:
        return (
          DoctorLine(
            check: "daemon", finding: .speechUnavailable,
            sentence: error.sentence(forwardingWith: RunFailure.howToForward).capitalizedFirst,
            printed: error.printedSentence.capitalizedFirst),
          .unavailable
        )
      }
    }
  }
}
