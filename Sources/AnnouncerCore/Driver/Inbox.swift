import Synchronization

/// The loop's inbox: anyone sends, the loop takes everything that has arrived at once.
///
/// It is not an `AsyncStream<Input>`: the standard library's stream is not
/// specialized for the element type, and under callgrind every yield and every
/// next costs about 5,000 instructions, most of them runtime generic-metadata
/// lookups; with about eight inputs per announcement that is a third of the
/// announcer's work.
final class Inbox<Element: Sendable>: Sendable {
  private struct State {
    var items: [Element] = []
    var waiter: CheckedContinuation<[Element]?, Never>?
    var finished = false
  }

  private let state = Mutex(State())

  /// Adds `element` for the loop; returns `false`, and drops it, once the inbox is finished.
  @discardableResult
  func send(_ element: Element) -> Bool {
    let (accepted, waiter): (Bool, CheckedContinuation<[Element]?, Never>?) = state.withLock {
      guard !$0.finished else { return (false, nil) }
      if let waiter = $0.waiter {
        $0.waiter = nil
        return (true, waiter)
      }
      $0.items.append(element)
      return (true, nil)
    }
    waiter?.resume(returning: [element])
    return accepted
  }

  /// No more elements are accepted; the loop still gets those already sent.
  func finish() {
    let waiter = state.withLock { state -> CheckedContinuation<[Element]?, Never>? in
      state.finished = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: nil)
  }

  /// Everything sent since the last call, in order, once there is something;
  /// `nil` once the inbox is finished and empty. Only the loop calls this.
  func next() async -> [Element]? {
    if let ready = take() { return ready.isEmpty ? nil : ready }
    return await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> [Element]?? in
        if !state.items.isEmpty {
          let batch = state.items
          state.items = []
          return .some(batch)
        }
        if state.finished { return .some(nil) }
        state.waiter = continuation
        return .none
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// The waiting batch; an empty one when finished and drained; `nil` when the caller must wait.
  private func take() -> [Element]? {
    state.withLock { state in
      if !state.items.isEmpty {
        let batch = state.items
        state.items = []
        return batch
      }
      return state.finished ? [] : nil
    }
  }
}
