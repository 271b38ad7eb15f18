import ArgumentParser

/// A command that delivers announcements, and so takes the process's signals: ``Main``
/// arms them once, before it runs, and hands them to ``run(signals:)``.
protocol DeliveringCommand: AsyncParsableCommand {
  /// Runs with the process's signals, and returns the exit status (``ExitStatus``).
  ///
  /// - Throws: a usage error, which ArgumentParser words, before anything is delivered.
  func run(signals: ProcessSignals) async throws -> Int32
}

extension DeliveringCommand {
  /// Runs with no signals armed, as when ArgumentParser's own entry runs the command:
  /// a signal then does what it would without announce. ArgumentParser takes an exit
  /// status only as a thrown ``ExitCode``.
  func run() async throws {
    let status = try await run(signals: .unarmed)
    if status != ExitStatus.success { throw ExitCode(status) }
  }
}
