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
  /// status now rather than after a wait or in the background.
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

  /// `--when-done`: checks that speech-dispatcher can be reached, then waits until
  /// `process` ends or a ``HandledSignal`` arrives, whichever comes first.
  ///
  /// No connection is held during the wait, which may be hours long: the announcement
  /// connects afresh when the process has ended, and its retry window starts then.
  func waitUntilEnded(_ process: WatchedProcess) async throws(RunFailure) -> WaitEnding {
    try await reachSpeechd().close()
    let (wakes, wake) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .bufferingOldest(1))
    let signals = await self.signals.armed { wake.yield(.signal($0)) }
    if request.outcomes.verbose { terminal.error("Waiting for process \(process.spokenName) to end.") }
    guard process.onEnd({ wake.yield(.ended(at: $0)) }) else {
      signals.disarm()
      throw .serviceUnavailable("Could not start a thread to wait for process \(process.pid); try again.")
    }
    var first = wakes.makeAsyncIterator()
    guard let woken = await first.next() else { preconditionFailure("a wait never ends without a wake") }
    signals.disarm()
    switch woken {
    case .signal(let signal):
      terminal.failure(
        "Stopped waiting for process \(process.spokenName) because of \(signal.name); nothing was spoken.",
        endingWith: .interrupted(signal))
      return .interrupted(signal)
    case .ended(let time):
      // The signals stay with libdispatch's handler, which the announcement's own trap
      // goes on using (see SignalTrap).
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
      throw ValidationError("--list-modules and --list-voices speak nothing; leave out --when-done.")
    }
    if texts == ["-"] || input.format == .json {
      throw ValidationError(
        "--when-done speaks TEXT or a sentence of its own, never standard input; give the announcements as TEXT."
      )
    }
    if announcerOptions.ssml && texts.isEmpty {
      throw ValidationError(
        "--when-done's own sentence is plain text; give SSML as TEXT, or leave out --ssml.")
    }
  }
}
