import AnnouncerCore
import FoundationEssentials
import Glibc

extension AnnounceRun {
  /// `--detach`: connects, so that an unreachable speech-dispatcher is still reported
  /// here with its exit status, then starts the delivery in the background; with
  /// `--when-done`, the background process waits for `watched` through the pidfd it is given.
  ///
  /// The connection is left open for the process's exit to close: a polite goodbye
  /// would cost round trips of the latency that `--detach` exists to save.
  func detach(passing watched: WatchedProcess?) async throws(RunFailure) -> RunResult {
    // Braille alone needs no speech-dispatcher: a deafblind user may have none.
    let client = request.braille.mode == .only ? nil : try await reachSpeechd()
    // The child has no standard error, so a log it cannot write is said here, and the
    // delivery goes on without it.
    if let problem = request.outcomes.history?.problem() { terminal.error(problem) }
    do {
      _ = try Detach.spawnChild(
        arguments: Array(CommandLine.arguments.dropFirst()),
        passesStandardInput: request.readsStandardInput, processDescriptor: watched?.descriptor)
    } catch {
      throw .serviceUnavailable(error.description)
    }
    // Kept until the process exits, so that nothing closes it politely before then.
    if let client { _ = Unmanaged.passRetained(client) }
    return .detached
  }
}
