@testable import AnnouncerCore
import Testing

/// One notification's life, driven input by input with made-up times.
@Suite struct NotificationStateMachineTests {
  private func posted(wait: Duration = .seconds(10), id: UInt32 = 7) -> NotificationStateMachine {
    var machine = NotificationStateMachine(wait: wait)
    #expect(machine.start(now: .zero) == [.post])
    #expect(machine.posted(id: id, now: .milliseconds(7)) == [])
    return machine
  }

  @Test func dismissedByTheUserIsSeenAfterTheTimeItWasUp() {
    var machine = posted()
    #expect(
      machine.closed(id: 7, reason: .dismissed, now: .seconds(3)) == [.finish(.seen(after: .seconds(3)))])
    #expect(machine.isFinished)
  }

  @Test func anInvokedActionIsSeen() {
    var machine = posted()
    #expect(machine.actionInvoked(id: 7, now: .seconds(2)) == [.finish(.seen(after: .seconds(2)))])
    // The server closes it after the action; that changes nothing.
    #expect(machine.closed(id: 7, reason: .dismissed, now: .seconds(2)) == [])
  }

  @Test func expiredOnScreenIsMissed() {
    var machine = posted()
    #expect(machine.closed(id: 7, reason: .expired, now: .seconds(5)) == [.finish(.expired)])
    #expect(!NotificationOutcome.expired.isDelivered)
  }

  @Test(arguments: [NotificationCloseReason.closedByCall, .undefined])
  func closedByACallOrForNoReasonIsClosed(reason: NotificationCloseReason) {
    var machine = posted()
    #expect(machine.closed(id: 7, reason: reason, now: .seconds(1)) == [.finish(.closed)])
  }

  @Test func theEndOfTheWaitLeavesItOnScreenAsShown() {
    var machine = posted(wait: .seconds(10))
    #expect(machine.deadline == .seconds(10))
    #expect(machine.tick(now: .seconds(9)) == [])
    #expect(machine.tick(now: .seconds(10)) == [.finish(.shown(duration: .seconds(10)))])
    // No close: the user may still be reading it.
    #expect(machine.closed(id: 7, reason: .expired, now: .seconds(12)) == [])
    #expect(NotificationOutcome.shown(duration: .seconds(10)).isDelivered)
  }

  @Test func anIdThatComesAfterTheWaitEndsItAsShownAtOnce() {
    var machine = NotificationStateMachine(wait: .seconds(1))
    _ = machine.start(now: .zero)
    #expect(machine.tick(now: .seconds(1)) == [])
    #expect(machine.posted(id: 3, now: .seconds(2)) == [.finish(.shown(duration: .seconds(2)))])
  }

  @Test func aRefusalFailsWithTheServersWords() {
    var machine = NotificationStateMachine(wait: .seconds(10))
    _ = machine.start(now: .zero)
    #expect(
      machine.refused("org.freedesktop.DBus.Error.NoReply", now: .seconds(2))
        == [.finish(.failed(reason: "org.freedesktop.DBus.Error.NoReply"))])
  }

  @Test func aStopClosesWhatIsOnScreen() {
    var machine = posted()
    #expect(machine.stop(now: .seconds(1)) == [.close(7), .finish(.closed)])
    // The server's answer to our close changes nothing.
    #expect(machine.closed(id: 7, reason: .closedByCall, now: .seconds(1)) == [])
  }

  @Test func aStopBeforeTheIdClosesItWhenTheIdComes() {
    var machine = NotificationStateMachine(wait: .seconds(10))
    _ = machine.start(now: .zero)
    #expect(machine.stop(now: .milliseconds(1)) == [.finish(.closed)])
    #expect(machine.deadline == nil)
    #expect(machine.posted(id: 9, now: .milliseconds(5)) == [.close(9)])
    #expect(machine.posted(id: 9, now: .milliseconds(6)) == [])
  }

  @Test func theServerLeavingTheBusIsNoServer() {
    var machine = posted()
    #expect(machine.lost(now: .seconds(1)) == [.finish(.noServer)])
    #expect(machine.tick(now: .seconds(20)) == [])
  }

  @Test func signalsAboutAnotherNotificationChangeNothing() {
    var machine = posted(id: 7)
    #expect(machine.closed(id: 8, reason: .dismissed, now: .seconds(1)) == [])
    #expect(machine.actionInvoked(id: 8, now: .seconds(1)) == [])
    #expect(!machine.isFinished)
  }

  @Test func eachOutcomeHasTheNameTheDocumentsUse() {
    let names = [
      NotificationOutcome.seen(after: .zero), .shown(duration: .zero), .expired, .closed, .noServer,
      .failed(reason: ""),
    ].map(\.name)
    #expect(names == ["seen", "shown", "expired", "closed", "no-server", "failed"])
  }
}
