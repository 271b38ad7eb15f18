import AnnouncerTesting
import Testing

@testable import AnnouncerCore

/// Each message is spoken with exactly its own announcement's settings, whatever an earlier
/// message set on the connection and whatever a reconnect reset.
@Suite(.timeLimit(.minutes(1))) struct VoiceSettingsTests {
  let final = SpeechRequest.finalMarkName
  let backend = ScriptedBackend()
  let clock = ManualClock()

  func speak(
    _ said: inout AsyncStream<ScriptedBackend.Said>.AsyncIterator
  ) async throws -> ScriptedBackend.Said {
    let attempt = try #require(await said.next())
    backend.emit(.began(attempt.id))
    backend.emit(.indexMark(attempt.id, name: final))
    backend.emit(.ended(attempt.id))
    return attempt
  }

  @Test func aSettingLeftOutTakesTheDefaultNotThePreviousMessagesValue() async throws {
    let announcer = Announcer(backend: backend, clock: clock)
    var said = backend.said.makeAsyncIterator()
    let special = VoiceOptions(
      rate: 100, pitch: -50, pitchRange: 30, volume: 40, language: "de", voiceName: "Klaus",
      outputModule: "other", punctuation: .all, spell: true)
    async let first = announcer.announce("A", voice: special)
    let a = try await speak(&said)
    #expect(await first.wasSpoken)
    #expect(a.spokenWith?.rate == 100)
    #expect(a.spokenWith?.voiceName == "Klaus")
    #expect(a.spokenWith?.outputModule == "other")

    async let second = announcer.announce("B")
    let b = try await speak(&said)
    #expect(await second.wasSpoken)
    var expected = ScriptedBackend.defaults
    expected.pitchRange = 0
    #expect(b.spokenWith == expected)
    await announcer.close()
  }

  @Test func aVoiceTypeAfterASynthesisVoiceIsSpokenWithTheType() async throws {
    let announcer = Announcer(backend: backend, clock: clock)
    var said = backend.said.makeAsyncIterator()
    async let first = announcer.announce("A", voice: VoiceOptions(voiceName: "Klaus"))
    _ = try await speak(&said)
    _ = await first
    async let second = announcer.announce("B", voice: VoiceOptions(voiceType: .female2))
    let b = try await speak(&said)
    _ = await second
    #expect(b.spokenWith?.voiceName == nil)
    #expect(b.spokenWith?.voiceType == .female2)
    await announcer.close()
  }

  @Test func aRetryAfterAReconnectIsSpokenWithItsOwnSettingsAgain() async throws {
    let announcer = Announcer(backend: backend, clock: clock)
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce(
      "A", retryTimeout: .seconds(30), voice: VoiceOptions(rate: 50, language: "fr"))
    let first = try #require(await said.next())
    #expect(first.spokenWith?.rate == 50)
    backend.reconnect()
    await backend.emit(.connectionLost, handledBy: announcer)
    await backend.emit(.connectionRestored, handledBy: announcer)
    let probe = try #require(await said.next())
    #expect(probe.request.purpose == .quietProbe)
    backend.emit(.ended(probe.id))
    // Quiet; the second probe comes once the settle window has passed.
    let settle = AnnouncerTiming().settleWindow
    await clock.waitForSleeper(until: clock.now.offset + settle)
    clock.advance(by: settle)
    let settled = try #require(await said.next())
    #expect(settled.request.purpose == .quietProbe)
    backend.emit(.ended(settled.id))
    let retry = try #require(await said.next())
    backend.emit(.began(retry.id))
    backend.emit(.indexMark(retry.id, name: final))
    backend.emit(.ended(retry.id))
    #expect(await outcome.wasSpoken)
    #expect(retry.spokenWith?.rate == 50)
    #expect(retry.spokenWith?.language == "fr")
    await announcer.close()
  }

  @Test func plainAnnouncementsOnAFreshConnectionReadNoDefaults() async throws {
    let announcer = Announcer(backend: backend, clock: clock)
    var said = backend.said.makeAsyncIterator()
    for text in ["A", "B"] {
      async let outcome = announcer.announce(text)
      let attempt = try await speak(&said)
      #expect(await outcome.wasSpoken)
      #expect(attempt.spokenWith == ScriptedBackend.defaults)
    }
    #expect(backend.defaultsReadCount == 0)
    await announcer.close()
  }

  @Test func theDefaultsAreReadOnceBeforeTheFirstChangeAndRestoredAfterIt() async throws {
    let announcer = Announcer(backend: backend, clock: clock)
    var said = backend.said.makeAsyncIterator()
    var spoken: [ConnectionSettings?] = []
    for voice in [
      VoiceOptions(), VoiceOptions(rate: 80, language: "de"), VoiceOptions(), VoiceOptions(pitch: 9),
    ] {
      async let outcome = announcer.announce("A", voice: voice)
      spoken.append(try await speak(&said).spokenWith)
      #expect(await outcome.wasSpoken)
    }
    #expect(backend.defaultsReadCount == 1)
    #expect(spoken[1]?.rate == 80)
    #expect(spoken[2] == ScriptedBackend.defaults)
    #expect(spoken[3]?.pitch == 9)
    #expect(spoken[3]?.language == ScriptedBackend.defaults.language)
    await announcer.close()
  }
}

/// What the client sends for a change of settings.
@Suite struct HeldSettingsTests {
  let defaults = ScriptedBackend.defaults

  @Test func onlyAnUntouchedConnectionAndAPlainMessageNeedNoDefaults() {
    #expect(!HeldSettings.asOpened.needsDefaults(for: VoiceOptions()))
    #expect(HeldSettings.asOpened.needsDefaults(for: VoiceOptions(rate: 0)))
    #expect(HeldSettings.asOpened.needsDefaults(for: VoiceOptions(spell: true)))
    #expect(HeldSettings.known(defaults).needsDefaults(for: VoiceOptions()))
    #expect(HeldSettings.unknown.needsDefaults(for: VoiceOptions()))
  }

  @Test func whatIsHeldFollowsFromTheDefaults() {
    var fast = defaults
    fast.rate = 90
    #expect(HeldSettings.asOpened.settings(defaults: defaults) == defaults)
    #expect(HeldSettings.known(fast).settings(defaults: defaults) == fast)
    #expect(HeldSettings.unknown.settings(defaults: defaults) == nil)
  }
}

@Suite struct ConnectionSettingsTests {
  @Test func nothingIsSentWhenTheSettingsAreTheSame() {
    let defaults = ScriptedBackend.defaults
    #expect(defaults.resolving(VoiceOptions()).changes(from: defaults) == [])
  }

  @Test func theModuleIsSetBeforeTheVoiceWhichItWouldForget() throws {
    let target = ScriptedBackend.defaults.resolving(VoiceOptions(voiceName: "Klaus", outputModule: "m"))
    let changes = target.changes(from: ScriptedBackend.defaults)
    let module = try #require(changes.firstIndex(of: .outputModule("m")))
    let voice = try #require(changes.firstIndex(of: .voiceName("Klaus")))
    #expect(module < voice)
    var connection = ScriptedBackend.defaults
    for change in changes { connection.apply(change) }
    #expect(connection == target)
  }
}
