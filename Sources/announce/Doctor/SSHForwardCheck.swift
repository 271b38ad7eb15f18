import AnnouncerCore
import Glibc

/// Check 5c, in an SSH session only: whether speech is forwarded from the user's own
/// machine, and whether a forward left there is stale.
struct SSHForwardCheck: Sendable {
  /// How long the forwarded socket may take to take a connection.
  static let answerBound: Duration = .seconds(1)

  /// `--address`, when given.
  var explicit: String?
  var environment: [String: String]

  /// Whether doctor runs in an SSH session.
  static func applies(environment: [String: String]) -> Bool {
    !(environment["SSH_CONNECTION"] ?? "").isEmpty
  }

  /// The line when the forwarded socket did not take a connection `within` its share of
  /// doctor's time: the SSH session that made it has stopped forwarding.
  func notAnswering(within bound: Duration) -> DoctorLine {
    DoctorLine(
      check: "ssh-forward", finding: .speechUnavailable,
      said: localized(
        "The speech forwarded over SSH did not take a connection within {seconds}, so the SSH session that forwards it is stuck; log in again with {forward}.",
        ["seconds": DoctorLine.printedSeconds(bound), "forward": Self.forward]))
  }

  /// How a person forwards speech over SSH, for the end of a sentence.
  private static var forward: String { localized("the lines of announce init ssh") }

  func run() -> DoctorLine {
    let route: SpeechdRoute
    do {
      route = try SpeechdRoute.resolve(explicit, environment: environment)
    } catch {
      return DoctorLine(
        check: "ssh-forward", finding: .skipped,
        said: localized("The SSH forward was not checked, because the address is not one."))
    }
    guard case .forwardedFirst(let path, _) = route else {
      return DoctorLine(
        check: "ssh-forward", finding: .notInUse,
        said: localized(
          "This is an SSH session, but {setting} chooses where speech goes, so no forward is looked for.",
          ["setting": explicit != nil ? "--address" : "SPEECHD_ADDRESS"]))
    }
    let facts: [(String, DoctorFact)] = [("socket", .text(path))]
    switch ForwardedSpeechdSocket.presence(at: path) {
    case .absent:
      return DoctorLine(
        check: "ssh-forward", finding: .notInUse,
        said: localized(
          "No speech is forwarded over SSH to {path}, so announcements play on this server; to hear them on your own machine, log in with {forward}.",
          ["path": path, "forward": Self.forward]),
        facts: facts)
    case .foreign:
      return DoctorLine(
        check: "ssh-forward", finding: .somethingElseBroken,
        said: localized(
          "{path} is not a socket of yours, so announce does not use it and speech plays on this server; remove it, then log in again with {forward}.",
          ["path": path, "forward": Self.forward]),
        facts: facts)
    case .ours:
      return listenerLine(path: path, facts: facts)
    }
  }

  /// What listens at the forwarded socket, ours, at `path`.
  private func listenerLine(path: String, facts: [(String, DoctorFact)]) -> DoctorLine {
    switch ForwardedSpeechdSocket.listener(at: path) {
    case .refused:
      return DoctorLine(
        check: "ssh-forward", finding: .speechUnavailable,
        said: localized(
          "The speech forwarded over SSH to {path} is stale: the SSH session that made it has ended; log in again with {forward}, and announce removes the old socket when it next speaks.",
          ["path": path, "forward": Self.forward]),
        facts: facts)
    case .notAccepting:
      return DoctorLine(
        check: "ssh-forward", finding: .speechUnavailable,
        said: localized(
          "The speech forwarded over SSH to {path} is stuck: its socket does not accept connections, so the SSH session behind it is stopped or hung; end that session and log in again with {forward}.",
          ["path": path, "forward": Self.forward]),
        facts: facts)
    case .accepts:
      return DoctorLine(
        check: "ssh-forward", finding: .fine,
        said: localized("Speech is forwarded over SSH from your own machine to {path}.", ["path": path]),
        facts: facts)
    }
  }
}
