@testable import AnnouncerCore
import Synchronization

/// Speaking turns the test hands out by hand: the turn is never free at once,
/// and ``take()`` returns only once the test calls ``grant()``.
final class ScriptedTurns: SpeakingTurns {
  private struct State {
    var waiter: CheckedContinuation<Void, any Error>?
    var granted = false
    var releases = 0
    var takes = 0
  }

  private let state = Mutex(State())

  /// How many times the announcer gave back the turn or its place in line.
  var releases: Int { state.withLock { $0.releases } }
  /// Whether the announcer is waiting in ``take()``.
  var isWaiting: Bool { state.withLock { $0.waiter != nil } }

  func tryTake() -> Bool {
    state.withLock { $0.takes += 1 }
    return false
  }

  func take() async throws {
    try await withCheckedThrowingContinuation { continuation in
      let grantNow = state.withLock { state -> Bool in
        if state.granted { return true }
        state.waiter = continuation
        return false
      }
      if grantNow { continuation.resume() }
    }
  }

  /// Lets the waiting announcer speak.
  func grant() {
    let waiter = state.withLock { state in
      state.granted = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  func release() {
    let waiter = state.withLock { state in
      state.releases += 1
      state.granted = false
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(throwing: CancellationError())
  }
}
