import AnnouncerCore
import AnnouncerTesting
import Foundation
import Testing

@testable import announce

/// The notification service of a test: this server, or why there is none.
struct ScriptedNotificationService: NotificationService {
  var server: Result<ScriptedNotificationServer, NotificationUnavailable>

  func server(environment: [String: String]) async -> Result<any NotificationServer, NotificationUnavailable>
  {
    server.map { $0 }
  }
}

/// The run's notification rules with a scripted server and a scripted speech service.
@Suite(.timeLimit(.minutes(1))) struct NotificationRunTests {
  let service = ScriptedService()
  let server = ScriptedNotificationServer()
  static let missing = NotificationUnavailable.noServer(
    address: "unix:path=scripted-bus", reason: "org.freedesktop.Notifications was not provided")

  func request(
    _ texts: [String], notify: NotifyMode, log: OutcomeLog? = nil, timeout: Duration = .seconds(30)
  ) -> AnnounceRequest {
    var request = AnnounceRequest(
      input: .texts(texts), outcomes: AnnounceRequest.Outcomes(quiet: true, history: log),
      plan: DeliveryPlan(braille: .off, notify: notify))
    request.defaults.retryTimeout = timeout
    return request
  }

  func run(
    _ request: AnnounceRequest, server: Result<ScriptedNotificationServer, NotificationUnavailable>
  )
    -> AnnounceRun
  {
    AnnounceRun(request, service: service, notifications: ScriptedNotificationService(server: server))
  }

  @Test func notifyOnlyDismissedIsSeenRecordedInItsOwnWordsAndNeverReachesSpeech() async throws {
    try await withTemporaryLog { log in
      async let result = run(request(["Tests passed"], notify: .only, log: log), server: .success(server))
        .result()
      await server.waitUntilPosted(1)
      server.dismiss(1)
      #expect(await result == .finished(RunSummary()))
      #expect(service.connectionCount == 0)
      let posted = try #require(server.posted.first)
      #expect(posted.summary == "Tests passed" && posted.urgency == .normal && !posted.suppressSound)
      #expect(posted.icon == NotificationChannel.icon)
      let recorded = try String(contentsOfFile: log.path, encoding: .utf8)
      #expect(recorded.contains("\"event\":\"seen\"") && recorded.contains("\"channel\":\"notification\""))
      #expect(!recorded.contains("\"event\":\"spoken\""))
      #expect(History(log: log).missed.isEmpty)
    }
  }

  @Test func notifyOnlyWithNoServerIsUnavailableAndMissedForReplay() async throws {
    try await withTemporaryLog { log in
      let result = await run(request(["Saved"], notify: .only, log: log), server: .failure(Self.missing))
        .result()
      #expect(result == .failed(.serviceUnavailable(Self.missing.printedMessage)))
      #expect(ExitStatus.of(result) == 69)
      #expect(service.connectionCount == 0)
      let missed = History(log: log).missed
      #expect(missed.map(\.text) == ["Saved"])
      let record = try #require(missed.first)
      #expect(record.event == "no-server" && record.reason == "no-server")
      #expect(HistoryWords.outcome(of: record) == "notification not seen (no notification server)")
    }
  }

  @Test func anExpiredNotificationIsMissedAndOneStillOnScreenAtTheEndOfTheWaitIsNot() async throws {
    try await withTemporaryLog { log in
      async let expiring = run(request(["Backup done"], notify: .only, log: log), server: .success(server))
        .result()
      await server.waitUntilPosted(1)
      server.expire(1)
      let result = await expiring
      #expect(ExitStatus.of(result) == 1)
      // The wait of 0 ends at once: shown, still on screen, neither missed nor closed.
      let again = ScriptedNotificationServer()
      let shown = await run(
        request(["Deployed"], notify: .only, log: log, timeout: .zero), server: .success(again)
      )
      .result()
      #expect(shown == .finished(RunSummary()))
      #expect(again.onScreen == [1] && again.closeCalls.isEmpty)
      let missed = History(log: log).missed
      #expect(missed.map(\.text) == ["Backup done"])
      #expect(missed.first?.event == "expired")
    }
  }

  @Test func besideSpeechTheServerIsAskedForNoSoundAndItsFailureIsNoFailureOfTheRun() async {
    let speaking = service.speakEverything()
    server.refuse(with: "no more room")
    var important = request(["Build failed"], notify: .on)
    important.defaults.priority = .important
    #expect(await run(important, server: .success(server)).result() == .finished(RunSummary()))
    await service.backend.close()
    #expect(await speaking.value == ["Build failed"])
    let posted = server.posted.first
    #expect(posted?.suppressSound == true && posted?.urgency == .critical)
  }

  @Test func besideSpeechNoServerIsSaidAndTheSpeechGoesAhead() async {
    let speaking = service.speakEverything()
    let result = await run(request(["Saved"], notify: .on), server: .failure(Self.missing)).result()
    #expect(result == .finished(RunSummary()))
    await service.backend.close()
    #expect(await speaking.value == ["Saved"])
  }

  @Test func aNotificationRefusedWhenItHadToDeliverIsNotDelivered() async {
    server.refuse(with: "no more room")
    let result = await run(request(["Saved"], notify: .only), server: .success(server)).result()
    #expect(ExitStatus.of(result) == 1)
  }

  @Test func theHooksBodyIsWhereTheAnnouncementCameFrom() async throws {
    var hook = try AnnounceRequest.hook(
      speaking: "make finished", soundIcon: nil,
      environment: ["ANNOUNCE_NOTIFY": "only", "ANNOUNCE_TIMEOUT": "0"],
      origin: "make >log 2>&1\n~/src/announce")
    hook.outcomes.history = nil
    #expect(hook.plan == DeliveryPlan(braille: .off, notify: .only))
    #expect(await run(hook, server: .success(server)).result() == .finished(RunSummary()))
    #expect(server.posted.first?.body == "make >log 2>&1\n~/src/announce")
    // A server that reads markup in the body gets the command's characters escaped.
    let markup = ScriptedNotificationServer(
      information: NotificationServerInformation(
        name: "dunst", vendor: "knopwob", version: "1.9", specificationVersion: "1.2",
        capabilities: ["actions", "body", "body-markup"]))
    #expect(await run(hook, server: .success(markup)).result() == .finished(RunSummary()))
    #expect(markup.posted.first?.body == "make &gt;log 2&gt;&amp;1\n~/src/announce")
  }

  @Test func aSignalDuringTheWaitClosesTheNotificationRecordsItClosedAndEndsWithItsStatus() async throws {
    try await withTemporaryLog { log in
      let signals = ScriptedSignals()
      let run = AnnounceRun(
        request(["A long report"], notify: .only, log: log), service: service, signals: signals.process,
        notifications: ScriptedNotificationService(server: .success(server)))
      async let result = run.result()
      await server.waitUntilPosted(1)
      await signals.waitUntilArmed()
      await signals.send(.interrupt)
      #expect(await result == .interrupted(.interrupt))
      #expect(ExitStatus.of(await result) == 130)
      #expect(server.closeCalls == [1] && server.onScreen.isEmpty)
      let outcomes = History(log: log).outcomes
      #expect(outcomes.map(\.event) == ["closed"] && outcomes.first?.reason == "closed")
    }
  }

  static let plans: [([String], [String: String], DeliveryPlan)] = [
    (["--notify"], [:], DeliveryPlan(channels: [.speech, .notification], required: [.speech])),
    (["--notify-only"], [:], DeliveryPlan(channels: [.notification], required: [.notification])),
    ([], ["ANNOUNCE_NOTIFY": "ONLY"], DeliveryPlan(channels: [.notification], required: [.notification])),
    (
      ["--notify"], ["ANNOUNCE_NOTIFY": "only"],
      DeliveryPlan(channels: [.speech, .notification], required: [.speech])
    ),
    (
      ["--braille", "--notify-only"], [:],
      DeliveryPlan(channels: [.braille, .notification], required: [.notification])
    ),
    ([], ["ANNOUNCE_NOTIFY": "off"], .speech),
    ([], [:], .speech),
  ]

  @Test(arguments: plans)
  func theOptionsAndTheVariableMakeThePlan(
    arguments: [String], environment: [String: String], plan: DeliveryPlan
  )
    throws
  {
    #expect(try Announce.parse(arguments + ["x"]).request(environment: environment).plan == plan)
  }

  @Test func bothFlagsOrAVariableThatIsNoModeIsAUsageError() {
    #expect(throws: (any Error).self) { try Announce.parseAsRoot(["--notify", "--notify-only", "x"]) }
    #expect(throws: (any Error).self) {
      try Announce.parse(["x"]).request(environment: ["ANNOUNCE_NOTIFY": "yes"])
    }
    #expect(throws: (any Error).self) {
      try AnnounceRequest.hook(speaking: "x", soundIcon: nil, environment: ["ANNOUNCE_NOTIFY": "both"])
    }
  }
}
