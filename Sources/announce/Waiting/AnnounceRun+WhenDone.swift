import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

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
  /// would, with the same terminal and history; a ``HandledSignal`` that arrives first,
  /// or before the speech's phase, ends the run with the signal's status and nothing
  /// spoken. The ``RunDriver`` runs the wait, and then the speech, as two phases of the
  /// process's one ``ProcessSignals``.
  ///
  /// Nothing connects before the end, which may be hours away: speech-dispatcher may
  /// well be running by then when it is not now, so an announcement is recorded as
  /// missed only when speaking it then fails. No connection is held during the wait, and
  /// the announcement's retry window starts at the end.
  func speakWhenEnded(_ process: WatchedProcess) async throws(RunFailure) -> RunResult {
    let (request, terminal, signals) = (self.request, self.terminal, self.signals)
    let run = self
    return try await RunDriver(signals: signals).run(
      waitingFor: { ended throws(RunFailure) in
        if request.outcomes.verbose {
          terminal.error(localized("Waiting for process {process} to end.", ["process": process.spokenName]))
        }
        guard process.onEnd(ended) else {
          throw .serviceUnavailable(
            localized(
              "Could not start a thread to wait for process {pid}; try again.", ["pid": String(process.pid)]))
        }
      },
      interrupted: { signal, afterTheWait in
        let values: KeyValuePairs = ["process": process.spokenName, "signal": signal.name]
        terminal.failure(
          afterTheWait
            ? localized(
              "Process {process} ended, but {signal} came before its announcement was spoken; nothing was spoken.",
              values)
            // TRANSLATORS: {signal} is a signal's name, such as SIGINT.
            : localized(
              "Stopped waiting for process {process} because of {signal}; nothing was spoken.", values),
          endingWith: .interrupted(signal))
      },
      then: { time throws(RunFailure) -> RunResult in
        // A signal that came as the wait ended: nothing connects.
        if let signal = signals.received { return .interrupted(signal) }
        // The same run, with its one terminal and history, for the request without the wait.
        var speaking = run
        speaking.request = Self.speaking(request, after: process, endedAt: time)
        return try await speaking.outcome()
      })
  }

  /// The request that speaks the announcements of `request` once `process` has ended at
  /// `time`, as if it had been made without `--when-done`: its TEXTs, or the process's
  /// own sentence.
  private static func speaking(
    _ request: AnnounceRequest, after process: WatchedProcess, endedAt time: Duration
  ) -> AnnounceRequest {
    var speaking = request
    speaking.whenDone = nil
    if speaking.texts.isEmpty {
      let language = SpokenLanguage(for: speaking)
      speaking = language.applied(to: speaking)
      speaking.input = .texts([process.sentence(endedAt: time, in: language.wording)])
    }
    return speaking
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
