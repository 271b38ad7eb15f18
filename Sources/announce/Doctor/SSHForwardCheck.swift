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
      sentence:
        "The speech forwarded over SSH did not take a connection within \(DoctorLine.spokenSeconds(bound)), so the SSH session that forwards it is stuck; log in again with \(RunFailure.howToForward)."
    )
  }

  func run() -> DoctorLine {
    let route: SpeechdRoute
    do {
      route = try SpeechdRoute.resolve(explicit, environment: environment)
    } catch {
      return DoctorLine(
        check: "ssh-forward", finding: .skipped,
        sentence: "The SSH forward was not checked, because the address is not one.")
    }
    guard case .forwardedFirst(let path, _) = route else {
      return DoctorLine(
        check: "ssh-forward", finding: .notInUse,
        sentence:
          "This is an SSH session, but \(explicit != nil ? "--address" : "SPEECHD_ADDRESS") chooses where speech goes, so no forward is looked for."
      )
    }
    let facts: [(String, DoctorFact)] = [("socket", .text(path))]
    switch ForwardedSpeechdSocket.presence(at: path) {
    case .absent:
      return DoctorLine(
        check: "ssh-forward", finding: .notInUse,
        sentence:
          "No speech is forwarded over SSH to \(path), so announcements play on this server; to hear them on your own machine, log in with \(RunFailure.howToForward).",
        facts: facts)
    case .foreign:
      return DoctorLine(
        check: "ssh-forward", finding: .somethingElseBroken,
        sentence:
          "\(path) is not a socket of yours, so announce does not use it and speech plays on this server; remove it, then log in again with \(RunFailure.howToForward).",
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
        sentence:
          "The speech forwarded over SSH to \(path) is stale: the SSH session that made it has ended; log in again with \(RunFailure.howToForward), and announce removes the old socket when it next speaks.",
        facts: facts)
    case .notAccepting:
      return DoctorLine(
        check: "ssh-forward", finding: .speechUnavailable,
        sentence:
          "The speech forwarded over SSH to \(path) is stuck: its socket does not accept connections, so the SSH session behind it is stopped or hung; end that session and log in again with \(RunFailure.howToForward).",
        facts: facts)
    case .accepts:
      return DoctorLine(
        check: "ssh-forward", finding: .fine,
        sentence: "Speech is forwarded over SSH from your own machine to \(path).", facts: facts)
    }
  }
}
