/// Decides whose turn it is to speak when several announcers share one speech service.
///
/// An announcer takes the turn before the first attempt of each announcement
/// (and of each part of a long one) and gives it back once that has its
/// outcome, so announcers never cut each other off. ``AlwaysYourTurn`` is for
/// an announcer that is alone; `SharedSpeakingTurns` coordinates the
/// announce processes of one user.
///
/// One announcer holds or waits for at most one turn at a time.
public protocol SpeakingTurns: Sendable {
  /// Takes the turn when nobody is ahead, without blocking.
  ///
  /// Returns `false` when somebody is ahead; the place in line is kept, and
  /// ``take()`` waits for it.
  func tryTake() -> Bool
  /// Waits until the place in line taken by ``tryTake()`` comes up.
  ///
  /// Throws `CancellationError` when the task is cancelled or the place is released.
  func take() async throws
  /// Gives back the turn, or the place in line.
  func release()
}

/// No coordination: the turn is always free.
public struct AlwaysYourTurn: SpeakingTurns {
  /// Creates the no-op coordination.
  public init() {}
  /// Always `true`.
  public func tryTake() -> Bool { true }
  /// Returns at once.
  public func take() async throws {}
  /// Does nothing.
  public func release() {}
}
