import AnnouncerCore
import AnnouncerTesting
import Testing

/// The scripted server keeps what dunst keeps: the notifications on screen by id.
@Suite struct ScriptedNotificationServerTests {
  @Test func aReplaceKeepsTheIdOfOneStillOnScreen() async {
    let server = ScriptedNotificationServer()
    var inputs = server.inputs.makeAsyncIterator()
    server.post(NotificationRequest(summary: "3 messages skipped"), token: 1)
    #expect(await inputs.next() == .posted(1, id: 1))
    server.post(NotificationRequest(summary: "4 messages skipped", replaces: 1), token: 2)
    #expect(await inputs.next() == .posted(2, id: 1))
    #expect(server.onScreen == [1])
    server.dismiss(1)
    #expect(await inputs.next() == .closed(id: 1, reason: .dismissed))
    // A replace of one that is gone is a new notification.
    server.post(NotificationRequest(summary: "5 messages skipped", replaces: 1), token: 3)
    #expect(await inputs.next() == .posted(3, id: 2))
  }

  @Test func closingOneThatIsGoneSaysNothing() async {
    let server = ScriptedNotificationServer()
    var inputs = server.inputs.makeAsyncIterator()
    server.post(NotificationRequest(summary: "Done"), token: 1)
    #expect(await inputs.next() == .posted(1, id: 1))
    server.expire(1)
    #expect(await inputs.next() == .closed(id: 1, reason: .expired))
    server.close(1)
    server.leave()
    #expect(await inputs.next() == .lost)
    #expect(server.closeCalls == [1])
  }

  @Test func anActionIsFollowedByTheClose() async {
    let server = ScriptedNotificationServer()
    var inputs = server.inputs.makeAsyncIterator()
    server.post(NotificationRequest(summary: "Approve?"), token: 1)
    #expect(await inputs.next() == .posted(1, id: 1))
    server.invoke("default", of: 1)
    #expect(await inputs.next() == .actionInvoked(id: 1, key: "default"))
    #expect(await inputs.next() == .closed(id: 1, reason: .dismissed))
  }

  @Test func aRefusingServerRefusesEveryPost() async {
    let server = ScriptedNotificationServer()
    var inputs = server.inputs.makeAsyncIterator()
    server.refuse(with: "Excess notifications")
    server.post(NotificationRequest(summary: "x"), token: 4)
    #expect(await inputs.next() == .refused(4, reason: "Excess notifications"))
    #expect(server.onScreen == [])
  }
}
