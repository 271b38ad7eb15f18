import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// How the wait of `--when-done` ended.
enum WaitEnding {
  /// The process ended: the request that speaks its announcements, as if it had been
  /// made without `--when-done`.
  case ended(AnnounceRequest)
  /// A signal ended the run during the wait; nothing is spoken.
  case interrupted(HandledSignal)
}

extension AnnounceRun {
  /// The process `--when-done` names, opened for waiting; `nil` without the option. A bad
  /// PID is a usage error here, before anything connects, so `--detach` still reports it.
  func watchedProcess() throws(RunFailure) -> WatchedProcess? {
    guard let whenDone = request.whenDone else { return nil }
    if whenDone.isPassedIn, let inherited = WatchedProcess.inherited(whenDone.pid) { return inherited }
    return try WatchedProcess.open(whenDone.pid)
  }

  /// Connects to speech-dispatcher, so that one it cannot reach is reported with its exit
  /// status now rather than in the background.
  func reachSpeechd() async throws(RunFailure) -> SpeechdClient {
    let connection = request.connection
    do {
      return try await SpeechdClient.connect(
        address: connection.address, environment: connection.environment, appName: connection.appName)
    } catch {
      recordUnheard(because: .unreachable)
      throw RunFailure(connecting: error)
    }
  }

  /// `--when-done`: waits until `process` ends, then speaks as a run without the option
  /// would; a ``HandledSignal`` that arrives first, or before that run has armed its own
  /// handling, ends the run with the signal's status and nothing spoken.
  ///
  /// Nothing connects before the end, which may be hours away: speech-dispatcher may
  /// well be running by then when it is not now, so an announcement is recorded as
  /// missed only when speaking it then fails. No connection is held during the wait, and
  /// the announcement's retry window starts at the end.
  func speakWhenEnded(_ process: WatchedProcess) async throws(RunFailure) -> RunResult {
    let (endings, ending) = AsyncStream.makeStream(
      of: Result<RunResult, RunFailure>.self, bufferingPolicy: .bufferingOldest(1))
    let terminal = self.terminal
    let relay = SignalRelay { signal in
      terminal.failure(Self.unspoken(process, because: signal), endingWith: .interrupted(signal))
      ending.yield(.success(.interrupted(signal)))
    }
    // One trap for the whole run, so that no signal falls between two (see SignalRelay).
    let trap = await signals.armed { await relay.deliver($0) }
    defer { trap.disarm() }
    let speaking: AnnounceRequest
    switch try await waitUntilEnded(process, signals: relay) {
    case .interrupted(let signal): return .interrupted(signal)
    case .ended(let request): speaking = request
    }
    let run = AnnounceRun(speaking, service: service, signals: relay, braille: brailleService)
    Task {
      do throws(RunFailure) {
        ending.yield(.success(try await run.outcome()))
      } catch {
        ending.yield(.failure(error))
      }
    }
    var first = endings.makeAsyncIterator()
    guard let result = await first.next() else { preconditionFailure("a run never ends without a result") }
    return try result.get()
  }

  /// Waits until `process` ends or a signal arrives, whichever comes first; from then on
  /// `relay` leaves signals to its `unhandled` until the announcement's run takes them.
  private func waitUntilEnded(
    _ process: WatchedProcess, signals relay: SignalRelay
  ) async throws(RunFailure) -> WaitEnding {
    let (wakes, wake) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .bufferingOldest(1))
    relay.hand { wake.yield(.signal($0)) }
    if request.outcomes.verbose {
      terminal.error(localized("Waiting for process {process} to end.", ["process": process.spokenName]))
    }
    guard process.onEnd({ wake.yield(.ended(at: $0)) }) else {
      throw .serviceUnavailable(
        localized(
          "Could not start a thread to wait for process {pid}; try again.", ["pid": String(process.pid)]))
    }
    var first = wakes.makeAsyncIterator()
    guard let woken = await first.next() else { preconditionFailure("a wait never ends without a wake") }
    relay.hand(to: nil)
    switch woken {
    case .signal(let signal):
      terminal.failure(
        // TRANSLATORS: {signal} is a signal's name, such as SIGINT.
        localized(
          "Stopped waiting for process {process} because of {signal}; nothing was spoken.",
          ["process": process.spokenName, "signal": signal.name]),
        endingWith: .interrupted(signal))
      return .interrupted(signal)
    case .ended(let time):
      // A signal that came with the end, after it woke the wait, still ends the run.
      if let signal = relay.received {
        terminal.failure(Self.unspoken(process, because: signal), endingWith: .interrupted(signal))
        return .interrupted(signal)
      }
      var speaking = request
      speaking.whenDone = nil
      if speaking.texts.isEmpty {
        let language = SpokenLanguage(for: speaking)
        speaking = language.applied(to: speaking)
        speaking.input = .texts([process.sentence(endedAt: time, in: language.wording)])
      }
      return .ended(speaking)
    }
  }

  /// The sentence for a signal that came after `process` ended and before its
  /// announcement was under way.
  private static func unspoken(_ process: WatchedProcess, because signal: HandledSignal) -> String {
    localized(
      "Process {process} ended, but {signal} came before its announcement was spoken; nothing was spoken.",
      ["process": process.spokenName, "signal": signal.name])
  }

  /// What ends a wait.
  private enum Wake: Sendable {
    case ended(at: Duration)
    case signal(HandledSignal)
  }
}

extension Announce {
  /// The usage errors of `--when-done`: it speaks TEXT or a plain sentence of its own,
  /// never standard input, and never instead of listing.
  func validateWaiting() throws {
    guard announcerOptions.whenDone != nil else { return }
    if listing.anything {
      throw ValidationError(
        localized("--list-modules and --list-voices speak nothing; leave out --when-done."))
    }
    if texts == ["-"] || input.format == .json {
      throw ValidationError(
        localized(
          "--when-done speaks TEXT or a sentence of its own, never standard input; give the announcements as TEXT."
        ))
    }
    if announcerOptions.ssml && texts.isEmpty {
      throw ValidationError(
        localized("--when-done's own sentence is plain text; give SSML as TEXT, or leave out --ssml."))
    }
  }
}
