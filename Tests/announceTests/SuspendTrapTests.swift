import Foundation
import Synchronization
import Testing

@testable import announce

/// Control-Z while a run delivers, with SIGTSTP and the stop injected: no test process stops.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SuspendTrapTests {
  /// SIGTSTP's action as ``Suspension/stopUntilContinued()`` changes it: it saves the
  /// action, puts the default back, stops, and restores what it saved once continued.
  /// Each stop blocks its thread as the real one stops the process, until `continueStop`.
  final class ModelledProcess: Sendable {
    private let state = Mutex((action: "announce's handler", stops: 0, restored: 0))
    private let gates = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]

    var action: String { state.withLock { $0.action } }
    var stops: Int { state.withLock { $0.stops } }
    var restored: Int { state.withLock { $0.restored } }

    func stop() {
      let (saved, index) = state.withLock { state in
        defer {
          state.action = "default"
          state.stops += 1
        }
        return (state.action, state.stops)
      }
      gates[min(index, gates.count - 1)].wait()
      state.withLock {
        $0.action = saved
        $0.restored += 1
      }
    }

    /// Lets stop number `index` (from 0) continue.
    func continueStop(_ index: Int) { gates[index].signal() }
  }

  /// Runs `body` on a thread of its own: the stops block the cooperative threads they
  /// run on, as the real one stops the whole process, so the test's own steps must not
  /// need one.
  static func onThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        body()
        continuation.resume()
      }
    }
  }

  /// Returns once `condition` holds.
  static func waitUntil(_ condition: () -> Bool) {
    while !condition() { usleep(100) }
  }

  /// Two SIGTSTPs close together: the second came while the first was giving the display
  /// back. Each started a suspension of its own, and the second saved the default action
  /// that the first had put in place, and restored it last: from then on Control-Z
  /// stopped the process with the display held (issue 45, defect 2).
  @Test func twoSignalsCloseTogetherStopOnceAndLeaveTheHandlerInPlace() async {
    let process = ModelledProcess()
    let continued = Mutex(0)
    let trap = Suspension(
      whenStopping: {}, whenContinued: { continued.withLock { $0 += 1 } }, stop: process.stop)
    let started = Mutex(0)
    await Self.onThread {
      let count = [trap.received(), trap.received()].filter { $0 }.count
      started.withLock { $0 = count }
      Self.waitUntil { process.stops == count }
      // The process continues (SIGCONT): the first stop returns, then any other.
      for index in 0..<count {
        process.continueStop(index)
        Self.waitUntil { process.restored == index + 1 }
      }
      Self.waitUntil { continued.withLock { $0 } == count }
    }
    #expect(started.withLock { $0 } == 1)
    #expect(process.stops == 1)
    #expect(process.action == "announce's handler")
  }

  /// A SIGTSTP that comes after the process continued is a new Control-Z: it stops the
  /// process again.
  @Test func aSignalAfterTheProcessContinuedStopsItAgain() async {
    let process = ModelledProcess()
    let continued = Mutex(0)
    let trap = Suspension(
      whenStopping: {}, whenContinued: { continued.withLock { $0 += 1 } }, stop: process.stop)
    await Self.onThread {
      trap.received()
      Self.waitUntil { process.stops == 1 }
      process.continueStop(0)
      Self.waitUntil { continued.withLock { $0 } == 1 }
      trap.received()
      Self.waitUntil { process.stops == 2 }
      process.continueStop(1)
      Self.waitUntil { continued.withLock { $0 } == 2 }
    }
    #expect(process.stops == 2)
    #expect(process.action == "announce's handler")
  }
}
