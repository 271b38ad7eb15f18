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
  /// Which sound server plays the sound, asked only when the audio turns out broken.
  var soundServer: @Sendable () -> SoundServer = { SoundServer.runningNow() }

  /// The line for the test sentence, or the signal that stopped it, after which the
  /// sentence is cancelled and doctor ends as any run a signal ends.
  func run() async -> Result<DoctorLine, SignalStop> {
    let speaker: SpeechdSpeaker
    do {
      speaker = try await SpeechdSpeaker.connect(
        address: explicit, appName: "announce-doctor", environment: environment)
    } catch {
      return .success(
        DoctorLine(
          check: "speech", finding: .speechUnavailable,
          sentence: "The test sentence could not be sent: "
            + error.sentence(forwardingWith: RunFailure.howToForward)))
    }
    let announcer = speaker.announcer
    let signals = await SignalTrap.armed { _ in await announcer.cancelAll() }
    let started = ContinuousClock.now
    let outcome = await withTaskGroup(of: Outcome?.self) { group in
      // In the locale's language, as doctor reads none of the ANNOUNCE_ variables.
      let spoken = SpokenLanguage(explicit: nil, voiceName: nil, environment: environment)
      let test = Announcement(
        spoken.wording.localized(Self.sentence), voice: VoiceOptions(language: spoken.voiceLanguage))
      group.addTask { await announcer.announce(test) }
      group.addTask {
        try? await Task.sleep(for: Self.bound)
        return nil
      }
      var first: Outcome? = nil
      for await finished in group {
        if let finished {
          first = finished
          break
        }
        // The bound ran out: cancelling ends the announcement, whose outcome then comes.
        await announcer.cancelAll()
      }
      group.cancelAll()
      return first ?? .gaveUp(.cancelled)
    }
    let took = started.duration(to: .now)
    // A daemon whose audio stalled answers no goodbye either: waiting the usual 2 s for
    // it took broken-audio runs from 3.1 s to 5.1 s; one that answers does in milliseconds.
    await announcer.close(waitingAtMost: .milliseconds(500))
    signals.disarm()
    // The trap left the signals ignored; the checks after this one hold no speech, so a
    // signal may end them at once, as before the trap.
    for signal in HandledSignal.allCases { Glibc.signal(signal.number, SIG_DFL) }
    if let signal = signals.received { return .failure(SignalStop(signal: signal)) }
    return .success(line(for: outcome, took: took))
  }

  /// A signal that stopped the test sentence.
  struct SignalStop: Error {
    var signal: HandledSignal
  }

  /// The line for the sentence's `outcome`.
  func line(for outcome: Outcome, took: Duration) -> DoctorLine {
    let seconds = DoctorLine.seconds(took)
    var facts: [(String, DoctorFact)] = [("seconds", .number(seconds))]
    switch outcome {
    case .spoken:
      facts.insert(("outcome", .text("spoken")), at: 0)
      return DoctorLine(
        check: "speech", finding: .fine,
        sentence: "The test sentence was heard to the end, in \(DoctorLine.spoken(seconds)) seconds.",
        facts: facts)
    case .gaveUp(let reason):
      facts.insert(("outcome", .text(reason.rawValue)), at: 0)
      switch reason {
      case .interruptedOutOfTime, .noRetry:
        // Other speech plays, so the daemon and the audio work.
        return DoctorLine(
          check: "speech", finding: .fine,
          sentence:
            "The test sentence was cut off by other speech that went on for \(DoctorLine.spoken(DoctorLine.seconds(Announcement.defaultRetryTimeout))) seconds, so something else, such as a screen reader, is speaking; speech works, and announcements wait their turn.",
          facts: facts)
      case .stalled:
        let server = soundServer()
        facts.append(("soundServer", .text(server == .none ? "none" : server.rawValue)))
        return DoctorLine(
          check: "speech", finding: .speechUnavailable,
          sentence:
            "speech-dispatcher began the test sentence but never finished it, so its audio output is broken; \(server.fix).",
          facts: facts)
      case .notAnswering, .disconnected, .unreachable:
        return DoctorLine(
          check: "speech", finding: .speechUnavailable,
          sentence:
            "The test sentence was not heard: \(reason.explanation); start speech-dispatcher again, and read its log in ~/.cache/speech-dispatcher/log if it keeps failing.",
          facts: facts)
      case .cancelled, .dropped:
        return DoctorLine(
          check: "speech", finding: .speechUnavailable,
          sentence:
            "The test sentence did not end within \(DoctorLine.spoken(DoctorLine.seconds(Self.bound))) seconds, so speech-dispatcher is too slow or stuck; restart it and try again.",
          facts: facts)
      }
    }
  }

  /// The line when check 2 found the daemon not answering.
  static let skipped = DoctorLine(
    check: "speech", finding: .skipped,
    sentence: "No test sentence was spoken, because speech-dispatcher does not answer.")
}

extension DoctorLine {
  /// `duration` in seconds, to a tenth.
  static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return ((Double(whole) + Double(fraction) / 1e18) * 10).rounded() / 10
  }

  /// A number of seconds as a person says it: `1.4`, `3`.
  static func spoken(_ seconds: Double) -> String {
    seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
  }
}
