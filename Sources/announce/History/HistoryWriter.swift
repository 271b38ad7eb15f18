import AnnouncerCore
import Dispatch
import Glibc
import Synchronization

/// Appends a run's records to the ``OutcomeLog`` on a thread of its own, in the order
/// they came, as many at once as have gathered.
///
/// The log's lock is waited for by polling, and a rotation reads both files: neither may
/// hold one of the few threads of Swift's cooperative pool, where the events of the run
/// are reported. One append of all that gathered keeps up with a flood that one append
/// per record did not (issue #39: the records waited in memory, 104 MiB for 100,000 lines).
///
/// What waits is bounded: of the announcements that flood control dropped, only the
/// newest ``maxWaitingDropped`` (up to twice as many for a moment) wait to be written;
/// older ones are left out, as the log's rotation would soon push them out anyway. Every
/// other record waits its turn.
final class HistoryWriter: Sendable {
  /// The most records of dropped announcements that wait to be written.
  static let maxWaitingDropped = 1_024

  private struct State {
    /// The records to write, oldest first, and whether each is of a dropped announcement.
    var waiting: [(line: @Sendable () -> String, dropped: Bool)] = []
    var droppedWaiting = 0
    /// Whether a thread is writing.
    var writing = false
    /// Those waiting until everything is written.
    var finishing: [CheckedContinuation<Void, Never>] = []
    var semaphores: [DispatchSemaphore] = []
  }

  private let log: OutcomeLog
  private let state = Mutex(State())
  /// Called, on the writing thread, with the reason the first time that this process
  /// leaves records of this log out.
  private let failed: @Sendable (OutcomeLog.WriteFailure) -> Void

  /// The logs that this process has failed to write already. A replay speaks each
  /// announcement in a run of its own, with a writer of its own, and said the log's failure
  /// once for each (history-harness faults: three lines for a replay of three).
  private static let failedLogs = Mutex<Set<String>>([])

  init(log: OutcomeLog, failed: @escaping @Sendable (OutcomeLog.WriteFailure) -> Void) {
    self.log = log
    self.failed = failed
    Self.all.withLock { $0.append(self) }
  }

  /// Every writer of the process, so that a run can wait for all of them before it ends.
  private static let all = Mutex<[HistoryWriter]>([])

  /// Queues `line` to be appended.
  func write(_ line: String) { write(dropped: false) { line } }

  /// Queues the line that `line` makes to be appended; `dropped` says it is the record of
  /// an announcement that flood control dropped. The line is made on the writing thread,
  /// and not at all for a record left out, so that the events of a flood are reported
  /// faster than flood control drops them.
  func write(dropped: Bool, _ line: @escaping @Sendable () -> String) {
    let start = state.withLock { state -> Bool in
      state.waiting.append((line, dropped))
      if dropped {
        state.droppedWaiting += 1
        // Cut back to the bound only at twice the bound, so that each record costs little.
        if state.droppedWaiting > 2 * Self.maxWaitingDropped {
          var excess = state.droppedWaiting - Self.maxWaitingDropped
          state.waiting.removeAll { entry in
            guard entry.dropped, excess > 0 else { return false }
            excess -= 1
            return true
          }
          state.droppedWaiting = Self.maxWaitingDropped
        }
      }
      guard !state.writing else { return false }
      state.writing = true
      return true
    }
    guard start else { return }
    if !SystemThread.start({ self.drain() }) { drain() }
  }

  /// Writes what waits until nothing does, then wakes those waiting for it.
  private func drain() {
    while true {
      let batch = state.withLock { state -> [@Sendable () -> String]? in
        guard !state.waiting.isEmpty else {
          state.writing = false
          return nil
        }
        defer {
          state.waiting = []
          state.droppedWaiting = 0
        }
        return state.waiting.map(\.line)
      }
      guard let batch else { break }
      let lines = batch.map { $0() }
      if let failure = log.failure(appendingAll: lines),
        Self.failedLogs.withLock({ $0.insert(log.path).inserted })
      {
        failed(failure)
      }
    }
    let (continuations, semaphores) = state.withLock { state in
      // Only while nothing new came in meanwhile; a new writing thread wakes them otherwise.
      guard !state.writing else { return ([CheckedContinuation<Void, Never>](), [DispatchSemaphore]()) }
      defer {
        state.finishing = []
        state.semaphores = []
      }
      return (state.finishing, state.semaphores)
    }
    for continuation in continuations { continuation.resume() }
    for semaphore in semaphores { semaphore.signal() }
  }

  /// Returns once every record queued so far is written, or left out.
  func finish() async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state -> Bool in
        guard state.writing || !state.waiting.isEmpty else { return true }
        state.finishing.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// ``finish()`` for every writer of the process: a run waits for this before it ends,
  /// so that every record is in the log when the process exits.
  static func finishAll() async {
    for writer in all.withLock({ $0 }) { await writer.finish() }
  }

  /// ``finish()`` for code that is not async: tests, which read the log right after.
  func waitUntilWritten() {
    let semaphore = DispatchSemaphore(value: 0)
    let done = state.withLock { state -> Bool in
      guard state.writing || !state.waiting.isEmpty else { return true }
      state.semaphores.append(semaphore)
      return false
    }
    if !done { semaphore.wait() }
  }
}
