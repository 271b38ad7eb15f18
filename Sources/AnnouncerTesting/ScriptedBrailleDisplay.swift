package import AnnouncerCore
import Synchronization

/// A braille display that records what it is asked to do, as BrlAPI requests would reach
/// brltty, and lets a test press keys or lose the connection: no brltty. The one copy
/// every test target uses.
package final class ScriptedBrailleDisplay: BrailleDisplay {
  private struct State {
    var calls: [String] = []
    var waiters: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []
  }

  package let address = "BrlAPI host :test"
  package let inputs: AsyncStream<BrailleDisplayInput>
  private let input: AsyncStream<BrailleDisplayInput>.Continuation
  private let state = Mutex(State())
  private let cells: Result<Int, BrailleUnavailable>

  /// A display of `cells` cells, or one that cannot be entered for the reason given.
  package init(cells: Result<Int, BrailleUnavailable> = .success(20)) {
    self.cells = cells
    (inputs, input) = AsyncStream.makeStream(of: BrailleDisplayInput.self)
  }

  /// The reader presses `key`.
  package func press(_ key: BrailleKey) { input.yield(.key(key)) }
  /// brltty goes away.
  package func lose() { input.yield(.lost) }

  /// The calls so far, such as `enter`, `priority 70`, `write Saved`, `leave`, `close`.
  package var calls: [String] { state.withLock { $0.calls } }

  /// The calls so far, once there are at least `count`.
  package func calls(atLeast count: Int) async -> [String] {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> [String]? in
        if state.calls.count >= count { return state.calls }
        state.waiters.append((count, continuation))
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Waits until `text` has been written.
  package func waitUntilWritten(_ text: String) async {
    while !calls.contains("write \(text)") { await Task.yield() }
  }

  private func record(_ call: String) {
    let ready = state.withLock { state -> [(CheckedContinuation<[String], Never>, [String])] in
      state.calls.append(call)
      let calls = state.calls
      let due = state.waiters.filter { $0.count <= calls.count }
      state.waiters.removeAll { $0.count <= calls.count }
      return due.map { ($0.continuation, calls) }
    }
    for (continuation, calls) in ready { continuation.resume(returning: calls) }
  }

  package func enterTtyMode() async -> Result<Int, BrailleUnavailable> {
    record("enter")
    return cells
  }
  package func setPriority(_ priority: UInt32) async { record("priority \(priority)") }
  package func write(_ text: String) async { record("write \(text)") }
  package func leaveTtyMode() async { record("leave") }
  package func close() async {
    record("close")
    input.finish()
  }
}
