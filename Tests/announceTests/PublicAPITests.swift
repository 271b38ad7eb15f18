import AnnouncerCore
import AnnouncerTesting
import Testing

/// The getting-started path of AnnouncerCore's documentation, written with what a library
/// user has: the public API of AnnouncerCore and AnnouncerTesting, no `@testable`.
@Suite(.timeLimit(.minutes(1))) struct PublicAPITests {
  let backend = ScriptedBackend()
  let clock = ManualClock()

  @Test func anAnnouncementHeardToTheEndReturnsSpoken() async throws {
    let announcer = Announcer(backend: backend, clock: clock, defaultTimeout: .seconds(5))
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce("Tests passed")
    let first = try #require(await said.next())
    #expect(first.request.purpose == .announcement)
    clock.advance(by: .milliseconds(500))
    backend.emit(.began(first.id))
    backend.emit(.indexMark(first.id, name: SpeechRequest.finalMarkName))
    backend.emit(.ended(first.id))
    let heard = await outcome
    #expect(heard == .spoken(attempts: 1, duration: .milliseconds(500)))
    #expect(heard.wasSpoken)
    await announcer.close()
  }

  @Test func aQueuedAnnouncementCutOffWithoutRetryIsGivenUpAndReported() async throws {
    let announcer = Announcer(backend: backend, clock: clock)
    let events = announcer.events()
    var said = backend.said.makeAsyncIterator()
    let id = announcer.enqueue(Announcement("Deploy finished", priority: .message, retryTimeout: .zero))
    let first = try #require(await said.next())
    backend.emit(.cancelled(first.id))
    await announcer.waitUntilIdle()
    var ending: AnnouncerEvent?
    for await event in events where event.announcement == id && event.kind.name == "gave-up" {
      ending = event
      break
    }
    #expect(ending?.kind == .gaveUp(.noRetry))
    #expect(ending?.text == "Deploy finished")
    await announcer.close()
  }
}
