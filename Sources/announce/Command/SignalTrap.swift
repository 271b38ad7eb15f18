import Dispatch
import FoundationEssentials
import Glibc

/// Turns SIGINT and SIGTERM into a clean exit: `onSignal` cancels our speech and
/// returns the exit status, then the process exits with it.
final class SignalTrap {
  private let sources: [DispatchSourceSignal]

  init(onSignal: @escaping @Sendable (Int32) async -> Int32) {
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        Task {
          let status = await onSignal(number)
          exit(status)
        }
      }
      source.resume()
      return source
    }
  }

  /// Stops reacting to the signals; they stay ignored, so a late one cannot kill the
  /// process while it prints its results.
  func disarm() {
    for source in sources { source.cancel() }
  }
}
