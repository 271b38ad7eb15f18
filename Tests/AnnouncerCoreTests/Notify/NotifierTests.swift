import AnnouncerCore
import AnnouncerTesting
import Testing

/// The notifier's driver on a manual clock and a scripted server: the outcomes, the
/// wait, a stop, a server that leaves, and flood control.
@Suite(.timeLimit(.minutes(1))) struct NotifierTests {
  let server = ScriptedNotificationServer()
  let clock = ManualClock()

  /// The next `count` outcomes, by item.
  func outcomes(
    _ events: AsyncStream<NotificationEvent>, count: Int
  ) async -> [Int: NotificationOutcome] {
    var found: [Int: NotificationOutcome] = [:]
    for await event in events {
      if case .finished(let outcome) = event.kind { found[event.item] = outcome }
      if found.count == count { break }
    }
    return found
  }

  @Test func aDismissedNotificationIsSeenAndAnInvokedActionIsSeenWithItsKey() async {
    let notifier = Notifier(server: server, clock: clock)
    let events = notifier.events()
    notifier.show(NotificationRequest(summary: "Build done"), as: 1, wait: .seconds(30))
    notifier.show(NotificationRequest(summary: "Tests passed"), as: 2, wait: .seconds(30))
    await server.waitUntilPosted(2)
    clock.advance(by: .seconds(2))
    server.dismiss(1)
    server.invoke("default", of: 2)
    var seen: [Int: NotificationOutcome] = [:]
    var actions: [Int: String] = [:]
    for await event in events {
      switch event.kind {
      case .actionInvoked(let key): actions[event.item] = key
      case .finished(let outcome): seen[event.item] = outcome
      }
      if seen.count == 2 { break }
    }
    #expect(seen == [1: .seen(after: .seconds(2)), 2: .seen(after: .seconds(2))])
    #expect(actions == [2: "default"])
    await notifier.drain()
    await notifier.close()
  }

  @Test func theWaitEndsAtItsTimeAndLeavesTheNotificationOnScreenAsShown() async {
    let notifier = Notifier(server: server, clock: clock)
    let events = notifier.events()
    notifier.show(NotificationRequest(summary: "Deployed"), as: 1, wait: .seconds(5))
    await server.waitUntilPosted(1)
    await clock.waitForSleeper(until: .seconds(5))
    clock.advance(by: .seconds(5))
    #expect(await outcomes(events, count: 1) == [1: .shown(duration: .seconds(5))])
    await notifier.drain()
    // Not closed: the user may still read it.
    #expect(server.closeCalls.isEmpty && server.onScreen.count == 1)
    await notifier.close()
  }

  @Test func anExpiredNotificationIsExpiredAndARefusedOneFailedWithTheServersWords() async {
    let notifier = Notifier(server: server, clock: clock)
    let events = notifier.events()
    notifier.show(NotificationRequest(summary: "Backup done"), as: 1, wait: .seconds(30))
    await server.waitUntilPosted(1)
    server.refuse(with: "too many notifications")
    notifier.show(NotificationRequest(summary: "Backup failed"), as: 2, wait: .seconds(30))
    await server.waitUntilPosted(2)
    server.expire(1)
    #expect(
      await outcomes(events, count: 2) == [1: .expired, 2: .failed(reason: "too many notifications")])
    await notifier.close()
  }

  @Test func aStopClosesEveryNotificationStillWaitedForAsClosed() async {
    let notifier = Notifier(server: server, clock: clock)
    let events = notifier.events()
    notifier.show(NotificationRequest(summary: "One"), as: 1, wait: .seconds(30))
    notifier.show(NotificationRequest(summary: "Two"), as: 2, wait: .seconds(30))
    await server.waitUntilPosted(2)
    await notifier.stopAll()
    #expect(await outcomes(events, count: 2) == [1: .closed, 2: .closed])
    await notifier.close()
    #expect(server.closeCalls.sorted() == [1, 2] && server.onScreen.isEmpty)
  }

  @Test func aServerThatLeavesEndsWhatIsUpAndWhatComesLaterAsNoServer() async {
    let notifier = Notifier(server: server, clock: clock)
    let events = notifier.events()
    notifier.show(NotificationRequest(summary: "One"), as: 1, wait: .seconds(30))
    await server.waitUntilPosted(1)
    server.leave()
    #expect(await outcomes(events, count: 1) == [1: .noServer])
    notifier.show(NotificationRequest(summary: "Two"), as: 2, wait: .seconds(30))
    #expect(await outcomes(events, count: 1) == [2: .noServer])
    #expect(server.posted.count == 1)
    await notifier.close()
  }

  @Test func aFloodBeyondTheBoundIsSkippedAndCountedInOneSummaryReplacedInPlace() async throws {
    let notifier = Notifier(server: server, clock: clock, maxOnScreen: 2, summary: { "\($0) skipped" })
    let events = notifier.events()
    for item in 1...5 {
      notifier.show(NotificationRequest(summary: "Line \(item)"), as: item, wait: .seconds(30))
    }
    #expect(await outcomes(events, count: 3) == [3: .skipped, 4: .skipped, 5: .skipped])
    while server.posted.last?.summary != "3 skipped" { await Task.yield() }
    let summaries = server.posted.filter { $0.summary.hasSuffix("skipped") }
    #expect(summaries.first?.summary == "1 skipped" && summaries.first?.replaces == 0)
    // The later counts replace the first summary in place: one summary on screen.
    let first = try #require(server.onScreen.first { $0 > 2 })
    #expect(summaries.dropFirst().allSatisfy { $0.replaces == first })
    #expect(server.onScreen == [1, 2, first])
    await notifier.stopAll()
    await notifier.close()
  }
}
