import ArgumentParser

/// A command that delivers announcements, and so takes the process's signals: ``Main``
/// arms them once, before it runs, and hands them to ``run(signals:)``.
protocol DeliveringCommand: AsyncParsableCommand {
  /// Runs with the process's signals.
  func run(signals: ProcessSignals) async throws
}

extension DeliveringCommand {
  /// Runs with no signals armed, as when ArgumentParser's own entry runs the command:
  /// a signal then does what it would without announce.
  func run() async throws { try await run(signals: .unarmed) }
}
