import Glibc
import Synchronization

/// Waits, in a thread of its own, until nobody holds an exclusive `flock` on a file.
///
/// The thread sleeps in the kernel (a blocking `flock`), so waiting costs nothing
/// until the lock is let go or its holder dies; it never runs on Swift's
/// cooperative pool, which a blocking call would starve. Waiting with a polling
/// loop instead made 100 waiting processes use 36.8 CPU seconds (issue #16).
final class LockWatch: Sendable {
  private struct State {
    var released = false
    var waiter: (id: Int, continuation: CheckedContinuation<Bool, Never>)?
    var nextWaiter = 0
    /// A waiter whose time ran out (or whose task was cancelled) before it began to wait.
    var expired: Int?
  }

  private let state = Mutex(State())

  /// Starts watching the file at `path`; `nil` when it cannot be opened (it is gone).
  init?(path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    // The thread keeps this watch alive until the lock is let go.
    // The thread only calls flock and resumes a continuation, so a small stack does; 200
    // waiting processes each hold one.
    let started = SystemThread.start(stackSize: 64 * 1024) { [self] in
      // A shared lock is granted once the exclusive one is let go; give it back at once.
      while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
      close(descriptor)
      let waiter = self.state.withLock { state in
        state.released = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.continuation.resume(returning: true)
    }
    guard started else {
      close(descriptor)
      return nil
    }
  }

  /// Whether the lock was let go within `limit`; `false` also when the task is cancelled.
  func waitForRelease(upTo limit: Duration) async -> Bool {
    let id = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    let timer = Task { [weak self] in
      try? await Task.sleep(for: limit)
      self?.resumeWaiter(id, returning: false)
    }
    defer { timer.cancel() }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state -> Bool in
          if state.released || state.expired == id || Task.isCancelled { return true }
          state.waiter = (id, continuation)
          return false
        }
        if resumeNow { continuation.resume(returning: state.withLock { $0.released }) }
      }
    } onCancel: {
      resumeWaiter(id, returning: false)
    }
  }

  private func resumeWaiter(_ id: Int, returning value: Bool) {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let waiter = state.waiter, waiter.id == id else {
        state.expired = id
        return nil
      }
      state.waiter = nil
      return waiter.continuation
    }
    waiter?.resume(returning: value)
  }
}
