import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

extension Announce {
  /// `--detach`: connects, so that an unreachable speech-dispatcher is still reported
  /// here with its exit status, then starts the delivery in the background and exits 0.
  ///
  /// It exits without returning as soon as the child runs, which closes the
  /// connection; a polite goodbye would cost round trips of the latency that `--detach`
  /// exists to save.
  func detachDelivery(terminal: Terminal) async throws -> Never {
    let client = try await connecting(terminal: terminal) { () throws(SpeechdConnectError) in
      try await SpeechdClient.connect(
        address: output.address, environment: Self.environment, appName: output.appName)
    }
    // The child has no standard error, so a log it cannot write is said here, and the
    // delivery goes on without it.
    if let problem = OutcomeLog.forUser(environment: Self.environment).problem() { terminal.error(problem) }
    do {
      _ = try Detach.spawnChild(
        arguments: Array(CommandLine.arguments.dropFirst()),
        passesStandardInput: readsStandardInput)
    } catch {
      terminal.error(error.description)
      throw ExitCode(ExitStatus.serviceUnavailable)
    }
    withExtendedLifetime(client) { Glibc.exit(ExitStatus.success) }
  }
}
