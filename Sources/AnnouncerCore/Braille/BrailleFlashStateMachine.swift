/// The life of one braille flash: waiting for the display, showing the text window by
/// window, and giving the display back with one final outcome.
///
/// This is plain data, like ``AnnouncementStateMachine``: every input is a
/// `mutating func` that takes the current time and returns the ``Action``s the driver
/// must perform. It never sleeps, never reads a clock and never talks to brltty itself.
///
/// The rules:
/// - Before it takes the display, a flash takes the braille turn shared with other
///   announce processes, and gives it back with its outcome.
/// - It takes the display by entering tty mode on the session's tty (never a guessed
///   one), setting its client priority to ``Priority/flash`` (above a screen reader's
///   50) and writing the first window. brltty must answer within
///   ``BrailleTiming/answerBound``.
/// - A text longer than the display is cut into windows at spaces (see
///   ``BrailleWindows``) and panned by time: each window is held for its reading time
///   at the pace (``BrailleTiming/readingTime(cells:)``), then the next one is shown.
/// - The reader's own panning keys move forward and back, to the first and to the last
///   window; the window they moved to is then held for its reading time before
///   panning by time goes on. Panning forward from the last window means the reader is
///   done with it, as any other key does.
/// - A key that is not for panning (a routing key, for example) means "read": the
///   flash ends at once and the outcome is ``BrailleOutcome/acknowledged(after:)``.
/// - Otherwise it ends, as ``BrailleOutcome/shown(duration:)``, once all of these
///   hold: the last window has been held for its reading time, the minimum flash time
///   has passed since it appeared, and the speech it goes with (if any) has ended.
/// - With a time limit, it ends at the limit; if the last window had not yet been held
///   for its reading time, the outcome is ``BrailleFailure/outOfTime``.
/// - Speech that failed because the speech service is unavailable, or was cancelled,
///   ends it at once (``BrailleFailure/speechFailed``); speech that was merely not
///   heard (interrupted, dropped) only counts as ended, since the reader can still read.
/// - The display is given back in the order that works on brltty 6.5 and 6.7: priority
///   ``Priority/disabled`` first, then an empty window, then leaving tty mode. Leaving
///   or closing alone leaves our text on the display until something else redraws it.
/// - brltty going away, or the connection breaking, ends it at once with
///   ``BrailleFailure/displayLost``; there is nothing left to give back.
///
/// Inputs the driver should never send (a turn granted that was not asked for, a
/// display answer while not entering) are internal inconsistencies and stop the program.
struct BrailleFlashStateMachine {
  /// BrlAPI client priorities (`BRLAPI_PARAM_CLIENT_PRIORITY`).
  enum Priority: UInt32, Equatable {
    /// Above a screen reader's 50 (Orca keeps 50, and 70 only in flat review since 47.3):
    /// shown, and first to get keys, on our tty.
    case flash = 70
    /// BrlAPI's "disabled": never shown and given no keys.
    case disabled = 0
  }

  /// What the driver must do next, in the order returned.
  enum Action: Equatable {
    /// Take the braille turn, then call ``turnTaken(now:)``, or ``turnBusy(now:)`` first if it must be waited for.
    case takeTurn
    /// Give back the braille turn, or the place in line.
    case releaseTurn
    /// Connect if not connected and enter tty mode on the session's tty; then call
    /// ``displayReady(cells:now:)`` or ``displayUnavailable(_:now:)``.
    case enterTtyMode
    /// Set our client priority.
    case setPriority(Priority)
    /// Show this text, padded with blanks to the display's width; an empty one blanks our window.
    case write(String)
    /// Leave tty mode.
    case leaveTtyMode
    /// Tell observers that this happened.
    case report(BrailleEventKind)
    /// The flash is over with this outcome. No further actions follow.
    case finish(BrailleOutcome)
  }

  private struct Showing: Equatable {
    let windows: [String]
    let shownAt: Duration
    var index = 0
    var windowShownAt: Duration
  }

  private enum State: Equatable {
    case notStarted
    case waitingForTurn
    case entering(since: Duration)
    case showing(Showing)
    case finished(BrailleOutcome)
  }

  private let text: String
  private let timing: BrailleTiming
  private let limit: Duration?
  private var state = State.notStarted
  /// Whether speech goes with it and has not ended yet.
  private var othersPending: Bool

  /// A flash of `text`.
  ///
  /// - Parameters:
  ///   - withSpeech: whether it goes with speech or another channel; it is then held until
  ///     ``othersFinished(_:now:)``.
  ///   - limit: the longest it may be held once shown; `nil` for no limit.
  init(_ text: String, timing: BrailleTiming, withSpeech: Bool, limit: Duration? = nil) {
    self.text = text
    self.timing = timing
    self.othersPending = withSpeech
    self.limit = limit
  }

  /// The final outcome, once there is one.
  var outcome: BrailleOutcome? {
    if case .finished(let outcome) = state { return outcome }
    return nil
  }

  /// The window on the display and how many there are, while it is shown.
  var window: (number: Int, of: Int)? {
    if case .showing(let showing) = state { return (showing.index + 1, showing.windows.count) }
    return nil
  }

  /// The text of the window on the display, while one is shown.
  var windowText: String? {
    if case .showing(let showing) = state { return showing.windows[showing.index] }
    return nil
  }

  /// The earliest time at which ``tick(now:)`` has something to do.
  var deadline: Duration? {
    switch state {
    case .notStarted, .waitingForTurn, .finished: return nil
    case .entering(let since): return since + timing.answerBound
    case .showing(let showing):
      let limitAt = limit.map { showing.shownAt + $0 }
      return [nextPanAt(showing), endAt(showing), limitAt].compactMap { $0 }.min()
    }
  }

  // MARK: Inputs

  /// Starts the flash: it asks for the braille turn.
  mutating func start(now: Duration) -> [Action] {
    precondition(state == .notStarted, "A braille flash starts once.")
    state = .waitingForTurn
    return [.takeTurn]
  }

  /// The turn asked for is not free yet: another announce process holds the display.
  mutating func turnBusy(now: Duration) -> [Action] {
    guard state == .waitingForTurn else {
      preconditionFailure("Internal inconsistency: the braille turn was found busy in state \(state)")
    }
    return [.report(.waitingForTurn)]
  }

  /// The turn asked for is ours: take the display.
  mutating func turnTaken(now: Duration) -> [Action] {
    guard state == .waitingForTurn else {
      preconditionFailure("Internal inconsistency: the braille turn was granted in state \(state)")
    }
    state = .entering(since: now)
    return [.enterTtyMode]
  }

  /// We are in tty mode on a display of `cells` cells: show the first window.
  mutating func displayReady(cells: Int, now: Duration) -> [Action] {
    guard case .entering = state else {
      preconditionFailure("Internal inconsistency: the display answered in state \(state)")
    }
    let showing = Showing(
      windows: BrailleWindows.split(timing.cut(text), cells: max(1, cells)), shownAt: now, windowShownAt: now)
    state = .showing(showing)
    return [
      .setPriority(.flash), .write(showing.windows[0]),
      .report(.shown(window: 1, windows: showing.windows.count, byReader: false)),
    ]
  }

  /// No display could be reached, or tty mode could not be entered.
  mutating func displayUnavailable(_ failure: BrailleFailure, now: Duration) -> [Action] {
    guard case .entering = state else {
      preconditionFailure("Internal inconsistency: the display answered in state \(state)")
    }
    return finish(.notShown(failure), release: false)
  }

  /// The other channels of its announcement are done with it (``FlashRelease``).
  mutating func othersFinished(_ release: FlashRelease, now: Duration) -> [Action] {
    othersPending = false
    switch release {
    case .leaveOut:
      switch state {
      case .notStarted:
        state = .finished(.notShown(.skipped))
        return [.finish(.notShown(.skipped))]
      case .waitingForTurn, .entering: return finish(.notShown(.skipped), now: now)
      case .showing, .finished: return tick(now: now)
      }
    case .endNow:
      switch state {
      case .finished: return []
      case .notStarted:
        state = .finished(.notShown(.speechFailed))
        return [.finish(.notShown(.speechFailed))]
      case .waitingForTurn, .entering, .showing: return finish(.notShown(.speechFailed), now: now)
      }
    case .runItsTime: return tick(now: now)
    }
  }

  /// The reader pressed `key` on the display.
  mutating func keyPressed(_ key: BrailleKey, now: Duration) -> [Action] {
    guard case .showing(var showing) = state else { return [] }
    let last = showing.windows.count - 1
    let target: Int
    switch key {
    case .panForward:
      guard showing.index < last else { return acknowledge(key: "pan-forward", now: now) }
      target = showing.index + 1
    case .panBack: target = max(0, showing.index - 1)
    case .first: target = 0
    case .last: target = last
    case .other(let name): return acknowledge(key: name, now: now)
    }
    showing.index = target
    showing.windowShownAt = now
    state = .showing(showing)
    return [
      .write(showing.windows[target]),
      .report(.shown(window: target + 1, windows: showing.windows.count, byReader: true)),
    ]
  }

  /// brltty went away, or the connection to it broke.
  mutating func displayLost(now: Duration) -> [Action] {
    switch state {
    case .notStarted, .waitingForTurn, .finished: return []
    case .entering, .showing: return finish(.notShown(.displayLost), release: false)
    }
  }

  /// Ends the flash at once, for example on a signal; the display is given back.
  mutating func cancel(now: Duration) -> [Action] {
    switch state {
    case .finished: return []
    case .notStarted:
      state = .finished(.notShown(.cancelled))
      return [.finish(.notShown(.cancelled))]
    case .waitingForTurn, .entering, .showing: return finish(.notShown(.cancelled), now: now)
    }
  }

  /// Time has reached `now`: pan, give up on a silent brltty, or end the flash.
  mutating func tick(now: Duration) -> [Action] {
    switch state {
    case .notStarted, .waitingForTurn, .finished: return []
    case .entering(let since):
      guard now >= since + timing.answerBound else { return [] }
      return finish(.notShown(.notAnswering), release: false)
    case .showing(var showing):
      if let limit, now >= showing.shownAt + limit {
        let read = lastWindowReadAt(showing).map { now >= $0 } ?? false
        return finish(read ? .shown(duration: now - showing.shownAt) : .notShown(.outOfTime), now: now)
      }
      if let end = endAt(showing), now >= end {
        return finish(.shown(duration: now - showing.shownAt), now: now)
      }
      guard let panAt = nextPanAt(showing), now >= panAt else { return [] }
      showing.index += 1
      showing.windowShownAt = now
      state = .showing(showing)
      return [
        .write(showing.windows[showing.index]),
        .report(.shown(window: showing.index + 1, windows: showing.windows.count, byReader: false)),
      ]
    }
  }

  // MARK: Helpers

  /// When panning by time shows the next window; `nil` on the last one.
  private func nextPanAt(_ showing: Showing) -> Duration? {
    guard showing.index < showing.windows.count - 1 else { return nil }
    return showing.windowShownAt + readingTime(showing.windows[showing.index])
  }

  /// When the last window will have been held for its reading time; `nil` while the
  /// display shows another one.
  private func lastWindowReadAt(_ showing: Showing) -> Duration? {
    guard showing.index == showing.windows.count - 1 else { return nil }
    return showing.windowShownAt + readingTime(showing.windows[showing.index])
  }

  /// When the flash has been held long enough; `nil` while it cannot end by time yet
  /// (not on the last window, or speech still going).
  private func endAt(_ showing: Showing) -> Duration? {
    guard !othersPending, let lastRead = lastWindowReadAt(showing) else { return nil }
    return max(lastRead, showing.shownAt + timing.minimumFlash)
  }

  private func readingTime(_ window: String) -> Duration {
    timing.readingTime(cells: window.unicodeScalars.count)
  }

  private mutating func acknowledge(key: String, now: Duration) -> [Action] {
    guard case .showing(let showing) = state else { return [] }
    return [.report(.acknowledged(key: key))]
      + finish(.acknowledged(after: now - showing.shownAt), now: now)
  }

  /// Finishes with `outcome`, giving the display back first if it was taken.
  private mutating func finish(_ outcome: BrailleOutcome, now: Duration) -> [Action] {
    let taken: Bool
    switch state {
    case .showing: taken = true
    // Entering may have succeeded after all; giving back costs nothing if it did not.
    case .entering: taken = true
    case .notStarted, .waitingForTurn, .finished: taken = false
    }
    return finish(outcome, release: taken)
  }

  private mutating func finish(_ outcome: BrailleOutcome, release: Bool) -> [Action] {
    state = .finished(outcome)
    let giveBack: [Action] =
      release ? [.setPriority(.disabled), .write(""), .leaveTtyMode, .report(.released)] : []
    return giveBack + [.releaseTurn, .finish(outcome)]
  }
}
