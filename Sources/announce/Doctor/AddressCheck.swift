import AnnouncerCore
import Glibc

/// Check 1: which speech-dispatcher address announce uses, and why; the same choice as
/// the connection makes (``SpeechdRoute``), without touching the socket.
struct AddressCheck {
  /// `--address`, when given.
  var explicit: String?
  /// Where `SPEECHD_ADDRESS`, `SSH_CONNECTION` and `XDG_RUNTIME_DIR` are read.
  var environment: [String: String]

  /// What the check found, for the checks after it.
  struct Found {
    var line: DoctorLine
    /// Where announce will look; `nil` when the address given is not one at all.
    var address: SpeechdAddress?
    /// Whether that is a socket forwarded over SSH.
    var isForwarded = false
  }

  func run() -> Found {
    let route: SpeechdRoute
    do {
      route = try SpeechdRoute.resolve(explicit, environment: environment)
    } catch {
      return Found(
        line: DoctorLine(
          check: "address", finding: .speechUnavailable,
          sentence: error.sentence(forwardingWith: RunFailure.howToForward), printed: error.printedSentence))
    }
    // Each reason is marked, and looked up only for the printed line: the JSON fact
    // and the report keep it in English.
    let (address, reason): (SpeechdAddress, String)
    var forwarded = false
    var forwardedPath = ""
    switch route {
    case .address(let chosen):
      address = chosen
      if explicit != nil {
        reason = Wording.marked("given with --address")
      } else if !chosen.isUserDefault {
        reason = Wording.marked("from SPEECHD_ADDRESS")
      } else {
        reason = Wording.marked(
          "the default for this user, since neither --address nor SPEECHD_ADDRESS is set")
      }
    case .forwardedFirst(let path, let local):
      forwardedPath = path
      if ForwardedSpeechdSocket.presence(at: path) == .ours {
        address = .unixSocket(path: path, isUserDefault: false)
        reason = Wording.marked("the socket forwarded over SSH from your own machine")
        forwarded = true
      } else {
        address = local
        reason = Wording.marked(
          "the default for this user, since this SSH session forwards no socket to {path}")
      }
    }
    let why = reason.replacingBytes(of: "{path}", with: forwardedPath)
    return Found(
      line: DoctorLine(
        check: "address", finding: .fine,
        sentence: "announce looks for speech-dispatcher at \(address), \(why).",
        facts: Self.facts(of: address) + [("why", .text(why))],
        printed: localized(
          "announce looks for speech-dispatcher at {address}, {reason}.",
          ["address": Self.printed(address), "reason": localized(reason, ["path": forwardedPath])])),
      address: address, isForwarded: forwarded)
  }

  /// The address as the printed line names it, in the language of the locale, on one line.
  static func printed(_ address: SpeechdAddress) -> String {
    switch address {
    case .unixSocket(let path, _): localized("the unix socket {path}", ["path": OneLine.escaped(path)])
    case .inetSocket(let host, let port):
      localized("{host} port {port}", ["host": OneLine.escaped(host), "port": String(port)])
    }
  }

  /// The address as JSON facts: `socket`, or `host` and `port`.
  static func facts(of address: SpeechdAddress) -> [(String, DoctorFact)] {
    switch address {
    case .unixSocket(let path, _): [("socket", .text(path))]
    case .inetSocket(let host, let port): [("host", .text(host)), ("port", .number(Double(port)))]
    }
  }
}
