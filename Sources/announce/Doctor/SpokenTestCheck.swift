import AnnouncerCore
import FoundationEssentials
import Glibc

/// Check 3: a short test sentence, spoken through the same announcer, with the same
/// bounds, as any announcement, and its real outcome.
struct SpokenTestCheck {
  /// What is said.
  static let sentence = Wording.marked("This is the announce doctor test.")

  /// How long the whole check may take, connecting included, before the sentence is
  /// cancelled: a broken audio output takes about 3.5 s to be found (BEGIN, a progress
  /// check 1 s later, and 2 s for its answer), a healthy stack about 4 s on the first
  /// message after the daemon starts; doctor as a whole must end within about 8 s.
  static let bound: Duration = .seconds(6)

  /// `--address`, when given.
  var explicit: String?
  var environment: [String: String]
  /// This run's bound: ``bound``, or less when doctor's own deadline is nearer.
  var bound: Duration = SpokenTestCheck.bound
  /// Which sound server plays the sound, asked only when the audio turns out broken.
  var soundServer: @Sendable () -> SoundServer = { SoundServer.runningNow() }
  /// Where a signal cancels the sentence: the doctor's phase stops it.
  var channel = TestSentenceChannel()

  /// The settings of the user's announcements (module, voice, language, rate and
  /// priority, from the `ANNOUNCE_` variables) that the sentence is spoken with.
  var settings: Announcement = Announcement("")
  /// Speaks the sentence's announcement, on a connection of its own, as a run does.
  var announcement: Announcement {
    var announcement = settings
    announcement.text = Self.sentence
    // The window the sentence gets with other speech, as any announcement's: the line for
    // a sentence cut off names it.
    announcement.retryTimeout = Announcement.defaultRetryTimeout
    announcement.delay = .zero
    announcement.soundIcon = nil
    announcement.isSSML = false
    return announcement
  }

  /// The lines for the user's voice (when speech-dispatcher does not have it) and for
  /// the test sentence. A signal cancels the sentence through ``channel``, and doctor
  /// ends as any run a signal ends.
  func run() async -> [DoctorLine] {
    let speaker: SpeechdSpeaker
    do {
      speaker = try await SpeechdSpeaker.connect(
        address: explicit, appName: "announce-doctor", environment: environment)
    } catch {
      return [
        DoctorLine(
          check: "speech", finding: .speechUnavailable,
          sentence: "The test sentence could not be sent: "
            + error.sentence(forwardingWith: RunFailure.howToForward),
          printed: localized(
            "The test sentence could not be sent: {problem}", ["problem": error.printedSentence]))
      ]
    }
    var spoken = announcement
    var lines: [DoctorLine] = []
    if let voiceLine = await Self.voiceLine(for: spoken.voice, lists: speaker.lists) {
      lines.append(voiceLine)
      // The sentence then checks that speech works at all, with the daemon's own voice.
      spoken.voice.outputModule = nil
      spoken.voice.voiceName = nil
      spoken.voice.language = nil
    }
    let announcer = speaker.announcer
    guard channel.speaking(with: announcer) else {
      await announcer.close(waitingAtMost: .milliseconds(500))
      return lines
    }
    let started = ContinuousClock.now
    // In the language the user's speech uses: their language setting, or the locale's.
    let language = SpokenLanguage(
      explicit: spoken.voice.language, voiceName: spoken.voice.voiceName, environment: environment)
    var test = spoken
    test.text = language.wording.localized(Self.sentence)
    if let asked = language.voiceLanguage { test.voice.language = asked }
    let speaking = Task { [test] in await announcer.announce(test) }
    if await Race.within(bound, { await speaking.value }) == nil {
      // The bound ran out: cancelling ends the announcement, whose outcome then comes.
      await announcer.cancelAll()
    }
    let outcome = await speaking.value
    let took = started.duration(to: .now)
    // A daemon whose audio stalled answers no goodbye either: waiting the usual 2 s for
    // it took broken-audio runs from 3.1 s to 5.1 s; one that answers does in milliseconds.
    channel.spoken()
    await announcer.close(waitingAtMost: .milliseconds(500))
    return lines + [line(for: outcome, took: took, voice: spoken.voice)]
  }

  /// The line for the sentence's `outcome`.
  func line(for outcome: Outcome, took: Duration, voice: VoiceOptions = VoiceOptions()) -> DoctorLine {
    let seconds = DoctorLine.seconds(took)
    var facts: [(String, DoctorFact)] = [("seconds", .number(seconds))] + Self.facts(of: voice)
    switch outcome {
    case .spoken:
      facts.insert(("outcome", .text("spoken")), at: 0)
      // speech-dispatcher reports the end of a message played into a muted or null sink
      // all the same: whether a person can hear it is the sound check's to say.
      let settings = Self.printedSettings(voice)
      return DoctorLine(
        check: "speech", finding: .fine,
        said: settings.isEmpty
          ? localized(
            "The test sentence was played to the end, in {seconds} second.",
            plural: "The test sentence was played to the end, in {seconds} seconds.",
            count: NumberWords.pluralCount(seconds), ["seconds": NumberWords.decimal(seconds)])
          : localized(
            "The test sentence was played to the end with {settings}, in {seconds} second.",
            plural: "The test sentence was played to the end with {settings}, in {seconds} seconds.",
            count: NumberWords.pluralCount(seconds),
            ["settings": settings, "seconds": NumberWords.decimal(seconds)]),
        facts: facts)
    case .gaveUp(let reason):
      facts.insert(("outcome", .text(reason.rawValue)), at: 0)
      switch reason {
      case .interruptedOutOfTime, .noRetry:
        // Other speech plays, so the daemon and the audio work.
        return DoctorLine(
          check: "speech", finding: .fine,
          said: localized(
            "The test sentence was cut off by other speech that went on for {seconds} second, so something else, such as a screen reader, is speaking; speech works, and announcements wait their turn.",
            plural:
              "The test sentence was cut off by other speech that went on for {seconds} seconds, so something else, such as a screen reader, is speaking; speech works, and announcements wait their turn.",
            count: NumberWords.pluralCount(DoctorLine.seconds(Announcement.defaultRetryTimeout)),
            ["seconds": NumberWords.decimal(DoctorLine.seconds(Announcement.defaultRetryTimeout))]),
          facts: facts)
      case .stalled:
        let server = soundServer()
        facts.append(("soundServer", .text(server == .none ? "none" : server.rawValue)))
        return DoctorLine(
          check: "speech", finding: .speechUnavailable,
          said: localized(
            "speech-dispatcher began the test sentence but never finished it, so its audio output is broken; {fix}.",
            ["fix": localized(server.fix)]),
          facts: facts)
      case .notAnswering, .disconnected, .unreachable:
        return DoctorLine(
          check: "speech", finding: .speechUnavailable,
          sentence:
            "The test sentence was not heard: \(reason.explanation); start speech-dispatcher again, and read its log in ~/.cache/speech-dispatcher/log if it keeps failing.",
          facts: facts,
          printed: localized(
            "The test sentence was not heard: {reason}; start speech-dispatcher again, and read its log in ~/.cache/speech-dispatcher/log if it keeps failing.",
            [
              "reason": reason == .notAnswering
                ? localized("speech-dispatcher stopped answering, so it is probably stopped or frozen")
                : reason.printedCauseAndFix
            ]))
      case .cancelled, .dropped, .notStarted:
        return DoctorLine(
          check: "speech", finding: .speechUnavailable,
          said: localized(
            "The test sentence did not end within {seconds} second, so speech-dispatcher is too slow or stuck; restart it and try again.",
            plural:
              "The test sentence did not end within {seconds} seconds, so speech-dispatcher is too slow or stuck; restart it and try again.",
            count: NumberWords.pluralCount(DoctorLine.seconds(bound)),
            ["seconds": NumberWords.decimal(DoctorLine.seconds(bound))]),
          facts: facts)
      }
    }
  }

  /// Why speech-dispatcher cannot speak with `voice`, the user's, as a line; `nil` when
  /// it can. Lists that cannot be read whole are a line too, as they end a run with 69.
  static func voiceLine(for voice: VoiceOptions, lists: any VoiceListing) async -> DoctorLine? {
    guard voice.outputModule != nil || voice.voiceName != nil || voice.language != nil else { return nil }
    let catalog = VoiceCatalog(lists, howToList: VoiceMismatch.howToList)
    let found: String?
    do {
      found = try await catalog.problem(with: voice)
    } catch {
      // A run would stop here too, with 69: its check of the names is cut short.
      return DoctorLine(
        check: "voice", finding: .speechUnavailable,
        sentence:
          "Your output module, voice and language could not be checked, as every announcement checks them: "
          + error.sentence(forwardingWith: RunFailure.howToForward),
        facts: facts(of: voice),
        printed: localized(
          "Your output module, voice and language could not be checked, as every announcement checks them: {problem}",
          ["problem": error.printedSentence]))
    }
    guard let problem = found else { return nil }
    let sentence = problem.hasSuffix(".") ? String(problem.dropLast()) : problem
    return DoctorLine(
      check: "voice", finding: .somethingElseBroken,
      sentence: sentence
        + "; every announcement fails with status 64 until the ANNOUNCE_ variable that names it is corrected, so the test sentence is spoken with speech-dispatcher's own voice.",
      facts: facts(of: voice))
  }

  /// The user's settings that the sentence was spoken with, for `--json`.
  static func facts(of voice: VoiceOptions) -> [(String, DoctorFact)] {
    var facts: [(String, DoctorFact)] = []
    if let module = voice.outputModule { facts.append(("module", .text(module))) }
    if let name = voice.voiceName { facts.append(("voice", .text(name))) }
    if let language = voice.language { facts.append(("language", .text(language))) }
    if let rate = voice.rate { facts.append(("rate", .number(Double(rate)))) }
    if let volume = voice.volume { facts.append(("volume", .number(Double(volume)))) }
    return facts
  }

  /// The user's settings, for the middle of a sentence, in the language of the locale:
  /// `the output module espeak-ng, the voice Alex and the rate 20`; empty with none.
  static func printedSettings(_ voice: VoiceOptions) -> String {
    var parts: [String] = []
    if let module = voice.outputModule {
      parts.append(localized("the output module {module}", ["module": module]))
    }
    if let name = voice.voiceName { parts.append(localized("the voice {voice}", ["voice": name])) }
    if let language = voice.language {
      parts.append(localized("the language {language}", ["language": language]))
    }
    if let rate = voice.rate { parts.append(localized("the rate {rate}", ["rate": String(rate)])) }
    if let volume = voice.volume {
      parts.append(localized("the volume {volume}", ["volume": String(volume)]))
    }
    return ListWords.all(parts)
  }

  /// The line when check 2 found the daemon not answering.
  /// With `ANNOUNCE_BRAILLE=only`: announcements go to the display alone.
  static let brailleOnly = DoctorLine(
    check: "speech", finding: .notInUse,
    said: localized(
      "No test sentence was spoken, because ANNOUNCE_BRAILLE=only shows announcements on the braille display alone."
    ))

  static let skipped = DoctorLine(
    check: "speech", finding: .skipped,
    said: localized("No test sentence was spoken, because speech-dispatcher does not answer."))
}

extension DoctorLine {
  /// `duration` in seconds, to a tenth.
  static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return ((Double(whole) + Double(fraction) / 1e18) * 10).rounded() / 10
  }

  /// A duration as a person says it: `1 second`, `1.5 seconds`.
  static func spokenSeconds(_ duration: Duration) -> String {
    let value = seconds(duration)
    return spoken(value) + (value == 1 ? " second" : " seconds")
  }

  /// ``spokenSeconds(_:)`` in the language of the locale, for a line made with
  /// ``localized(_:_:)``, whose English `--json` keeps.
  static func printedSeconds(_ duration: Duration) -> String { NumberWords.seconds(seconds(duration)) }

  /// A number of seconds as a person says it: `1.4`, `3`.
  static func spoken(_ seconds: Double) -> String {
    seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
  }
}
