import AnnouncerCore

/// Doctor's notification check, only when notifications are asked for
/// (`ANNOUNCE_NOTIFY=on` or `only`): which notification server answers on the session bus
/// (`GetServerInformation`), and what it can do (`GetCapabilities`).
///
/// Without notifications it is not made at all, so that doctor never loads libsystemd
/// for a user who does not want them. No server is the speech-unavailable finding with
/// `only` (announce would exit 69), and something else broken with `on` (the speech goes
/// ahead without it).
struct NotificationCheck {
  /// How long the bus and the server may take: the client's call bound (2 s) and a little
  /// for connecting.
  static let answerBound: Duration = .milliseconds(2500)

  /// The plan asked for; the check applies to one that uses notifications.
  var plan: DeliveryPlan
  /// Connects and asks the server who it is, or says why not.
  var probe: @Sendable () async -> Result<NotificationServerInformation, NotificationUnavailable>

  /// The check of the server on the session bus of `environment`.
  init(plan: DeliveryPlan, environment: [String: String]) {
    self.plan = plan
    probe = {
      switch await SdBusNotificationServer.connect(environment: environment) {
      case .success(let server):
        let information = await server.information()
        await server.shutdown()
        return information.map { .success($0) }
          ?? .failure(.noServer(address: server.address, reason: "no answer"))
      case .failure(let unavailable):
        return .failure(unavailable)
      }
    }
  }

  init(
    plan: DeliveryPlan,
    probe: @escaping @Sendable () async -> Result<NotificationServerInformation, NotificationUnavailable>
  ) {
    self.plan = plan
    self.probe = probe
  }

  /// `ANNOUNCE_NOTIFY`'s word for the plan: `on` with speech, `only` without.
  private var modeName: String { plan.uses(.speech) ? NotifyMode.on.rawValue : NotifyMode.only.rawValue }

  private var failedFinding: DoctorFinding {
    plan.requires(.notification) ? .speechUnavailable : .somethingElseBroken
  }

  func run() async -> DoctorLine {
    let asked: DoctorFact = .text(modeName)
    switch await probe() {
    case .success(let server):
      let capabilities = server.capabilities.sorted()
      return DoctorLine(
        check: "notification", finding: .fine,
        said: localized(
          "The notification server {name} {version} answers on the session bus and can show {capabilities}, so announcements are shown as desktop notifications.",
          [
            "name": server.name, "version": server.version,
            "capabilities": capabilities.isEmpty ? "-" : capabilities.joined(separator: ", "),
          ]),
        facts: [
          ("mode", asked), ("server", .text(server.name)), ("version", .text(server.version)),
          ("vendor", .text(server.vendor)), ("capabilities", .texts(capabilities)),
        ])
    case .failure(let unavailable):
      return DoctorLine(
        check: "notification", finding: failedFinding, said: unavailable.printedMessage,
        facts: [("mode", asked), ("problem", .text(Self.problemName(unavailable)))])
    }
  }

  /// The line when the check did not end `within` its share of doctor's time.
  func notAnswering(within bound: Duration) -> DoctorLine {
    DoctorLine(
      check: "notification", finding: failedFinding,
      said: localized(
        "The session bus or its notification server did not answer within {seconds}; restart your desktop's notification server, or set ANNOUNCE_NOTIFY=off.",
        ["seconds": DoctorLine.printedSeconds(bound)]),
      facts: [("mode", .text(modeName)), ("problem", .text("not-answering"))])
  }

  /// Doctor's speech line with `ANNOUNCE_NOTIFY=only`: nothing is spoken.
  static let notifyOnly = DoctorLine(
    check: "speech", finding: .notInUse,
    said: localized(
      "No test sentence was spoken, because ANNOUNCE_NOTIFY=only shows announcements as desktop notifications alone."
    ))

  /// The problem's name in `--json`.
  static func problemName(_ unavailable: NotificationUnavailable) -> String {
    switch unavailable {
    case .libraryMissing: "library-missing"
    case .noSessionBus: "no-session-bus"
    case .busUnreachable: "bus-unreachable"
    case .noServer: "no-server"
    case .noThread: "no-thread"
    }
  }
}
