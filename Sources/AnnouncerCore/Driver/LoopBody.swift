/// The state an ``ActionLoop`` owns and the actions it performs: the announcer's queue,
/// the flasher's flashes. Each input comes with the time it is handled at, and the loop
/// to arm timers and take turns with.
protocol LoopBody {
  /// What the driver's callers and helpers send.
  associatedtype Input: Sendable
  /// Who holds the turn: an announcement, or a flash.
  associatedtype TurnOwner: Sendable, Equatable

  /// Whether an armed timer is replaced only by an earlier one (a later deadline then
  /// gets a tick with nothing to do first), or whenever the deadline changes.
  static var keepsEarlierTimer: Bool { get }

  /// The next moment the body needs a ``tick(now:loop:)``; `nil` for none.
  var deadline: Duration? { get }

  mutating func handle(_ input: Input, now: Duration, loop: inout LoopContext<Self>)
  mutating func tick(now: Duration, loop: inout LoopContext<Self>)
  mutating func turnTaken(_ owner: TurnOwner, now: Duration, loop: inout LoopContext<Self>)
  /// After every input, once the timer is armed: resume whoever waits for a state.
  mutating func settle(loop: inout LoopContext<Self>)
  /// The inbox is closed and drained: end what is left.
  mutating func finish(now: Duration, loop: inout LoopContext<Self>)
}

extension LoopBody {
  mutating func settle(loop: inout LoopContext<Self>) {}
}
