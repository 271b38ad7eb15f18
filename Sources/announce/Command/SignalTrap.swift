import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a clean exit: `onSignal` cancels our speech and
/// returns the exit status, then the process exits with it.
final class SignalTrap {
  private let sources: [DispatchSourceSignal]
  private let caught = Caught()

  /// The first signal that arrived; 0 while none has.
  private final class Caught: Sendable {
    let number = Atomic<Int32>(0)
  }

  init(onSignal: @escaping @Sendable (Int32) async -> Int32) {
    let caught = self.caught
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        _ = caught.number.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
        Task {
          let status = await onSignal(number)
          exit(status)
        }
      }
      source.resume()
      return source
    }
  }

  /// The signal that arrived, if one did. A run that ends because of it exits with the
  /// signal's status, not with the outcome of the announcements it cancelled.
  var received: Int32? {
    let number = caught.number.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// Stops reacting to the signals; they stay ignored, so a late one cannot kill the
  /// process while it prints its results.
  func disarm() {
    for source in sources { source.cancel() }
  }
}
