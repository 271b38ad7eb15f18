import AnnouncerCore
import Synchronization

/// Doctor's test sentence as the ``RunDriver`` sees it: a signal cancels the sentence
/// while it is spoken, as it cancels any run's speech, and doctor then ends with the
/// signal's status.
final class TestSentenceChannel: StoppableChannel {
  private enum State {
    /// No sentence yet, or it is over.
    case idle
    /// The sentence is spoken by this announcer.
    case speaking(Announcer)
    /// A signal stopped doctor; `duringTheSentence` says whether the sentence was spoken then.
    case stopped(duringTheSentence: Bool)
  }
  private let state = Mutex(State.idle)

  /// Marks `announcer` as speaking the sentence; `false` when a signal stopped doctor
  /// already, and nothing may be said.
  func speaking(with announcer: Announcer) -> Bool {
    state.withLock { state in
      if case .stopped = state { return false }
      state = .speaking(announcer)
      return true
    }
  }

  /// The sentence is over.
  func spoken() {
    state.withLock { state in
      if case .speaking = state { state = .idle }
    }
  }

  /// Whether a signal came while the sentence was spoken, and cancelled it.
  var wasCancelled: Bool {
    state.withLock { state in
      if case .stopped(duringTheSentence: true) = state { return true }
      return false
    }
  }

  func stop() async {
    let announcer = state.withLock { state -> Announcer? in
      defer {
        if case .speaking = state {
          state = .stopped(duringTheSentence: true)
        } else {
          state = .stopped(duringTheSentence: false)
        }
      }
      if case .speaking(let announcer) = state { return announcer }
      return nil
    }
    await announcer?.cancelAll()
  }
}
