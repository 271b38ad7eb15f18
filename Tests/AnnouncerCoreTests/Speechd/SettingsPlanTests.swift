import Testing

@testable import AnnouncerCore

/// The plan of `SET`s that both ``SpeechdClient`` and the scripted backend follow, tested on
/// its own against a model daemon that applies each change as speech-dispatcher 0.11.4 does.
@Suite struct SettingsPlanTests {
  /// What a new connection holds.
  let opening = ConnectionSettings(
    outputModule: "espeak-ng", language: "en", voiceType: .male1, punctuation: .some)

  /// A connection: what the daemon holds, the plan, and how often the defaults were read.
  struct Connection {
    var daemon: ConnectionSettings
    var plan = SettingsPlan()
    var reads = 0

    init(_ opening: ConnectionSettings) { daemon = opening }

    /// Sends `voice`'s changes as the client would and returns them.
    @discardableResult
    mutating func send(_ voice: VoiceOptions) -> [SettingChange] {
      let held = daemon
      var reads = self.reads
      let changes = plan.changes(for: voice) {
        reads += 1
        return held
      }
      self.reads = reads
      for change in changes { daemon.apply(change) }
      return changes
    }
  }

  @Test func aPlainMessageOnAFreshConnectionSendsNothingAndReadsNothing() {
    var connection = Connection(opening)
    #expect(connection.send(VoiceOptions()) == [])
    #expect(connection.send(VoiceOptions()) == [])
    #expect(connection.reads == 0)
    #expect(connection.plan.defaults == nil)
  }

  @Test func theFirstChangeReadsTheDefaultsOnceBeforeAnythingIsSet() {
    var connection = Connection(opening)
    let changes = connection.send(VoiceOptions(rate: 50, language: "de"))
    #expect(connection.reads == 1)
    #expect(connection.plan.defaults == opening)
    #expect(changes.contains(.rate(50)) && changes.contains(.language("de")))
    #expect(connection.daemon == opening.resolving(VoiceOptions(rate: 50, language: "de")))
    connection.send(VoiceOptions(pitch: 9))
    connection.send(VoiceOptions())
    #expect(connection.reads == 1)
  }

  @Test func aSettingLeftOutGoesBackToTheDefaultNotThePreviousValue() {
    var connection = Connection(opening)
    connection.send(
      VoiceOptions(
        rate: 100, pitch: -50, pitchRange: 30, volume: 40, language: "de", voiceName: "Klaus",
        outputModule: "other", punctuation: .all, spell: true))
    connection.send(VoiceOptions())
    var expected = opening
    // SSIP cannot read the pitch range back, so "the default" is speech-dispatcher's built-in 0.
    expected.pitchRange = 0
    #expect(connection.daemon == expected)
  }

  @Test func theSameSettingsTwiceAreSentOnce() {
    var connection = Connection(opening)
    #expect(!connection.send(VoiceOptions(rate: 20)).isEmpty)
    #expect(connection.send(VoiceOptions(rate: 20)) == [])
  }

  @Test func afterARefusalEverySettingIsSentAgain() {
    var connection = Connection(opening)
    let first = connection.send(VoiceOptions(rate: 20))
    connection.plan.refused()
    #expect(connection.plan.held == .unknown)
    // The same settings once more: the connection may hold anything, so all of them go again.
    #expect(connection.send(VoiceOptions(rate: 20)) == first)
    #expect(connection.plan.held == .known(opening.resolving(VoiceOptions(rate: 20))))
  }

  @Test func aVoiceTypeAfterASynthesisVoiceIsSpokenWithTheType() {
    var connection = Connection(opening)
    connection.send(VoiceOptions(voiceName: "Klaus"))
    connection.send(VoiceOptions(voiceType: .female2))
    #expect(connection.daemon.voiceName == nil)
    #expect(connection.daemon.voiceType == .female2)
  }
}
