/// One input of an ``ActionLoop``.
enum LoopInput<Body: LoopBody>: Sendable {
  /// The body's own input.
  case input(Body.Input)
  /// The armed deadline came.
  case timer
  /// The turn asked for with `request` was granted to `owner`.
  case turnTaken(Body.TurnOwner, request: Int)
}
