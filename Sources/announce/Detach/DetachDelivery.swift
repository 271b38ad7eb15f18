import AnnouncerCore
import FoundationEssentials
import Glibc

extension AnnounceRun {
  /// `--detach`: connects, so that an unreachable speech-dispatcher is still reported
  /// here with its exit status, then starts the delivery in the background; with
  /// `--when-done`, the background process waits for `watched` through the pidfd it is
  /// given, and nothing connects here: speech-dispatcher is needed at the process's end,
  /// not now (see ``speakWhenEnded(_:)``).
  ///
  /// The connection is left open for the process's exit to close: a polite goodbye
  /// would cost round trips of the latency that `--detach` exists to save.
  func detach(passing watched: WatchedProcess?) async throws(RunFailure) -> RunResult {
    // Braille alone needs no speech-dispatcher (a deafblind user may have none), and a
    // run that waits for a process connects only when it has ended.
    let needsSpeech = watched == nil && request.plan.uses(.speech)
    let client = needsSpeech ? try await reachSpeechd() : nil
    // The child has no standard error, so a log it cannot write is said here, and the
    // delivery goes on without it.
    if let problem = request.outcomes.history?.problem() { terminal.error(problem) }
    do {
      _ = try Detach.spawnChild(
        arguments: Array(CommandLine.arguments.dropFirst()),
        passesStandardInput: request.readsStandardInput, processDescriptor: watched?.descriptor)
    } catch {
      // What the background process was to speak is missed, and replay can say it.
      recordUnheard(because: .notStarted)
      throw .serviceUnavailable(error.description)
    }
    // Kept until the process exits, so that nothing closes it politely before then.
    if let client { _ = Unmanaged.passRetained(client) }
    return .detached
  }
}
