/// One way an announcement reaches the user. Each channel has its own outcomes and its
/// own reasons for failing (``ChannelOutcome``, ``ChannelFailure``); ``DeliveryPlan``
/// says which of them must deliver in each mode.
enum Channel: String, Sendable, CaseIterable {
  /// Speech, through speech-dispatcher.
  case speech
  /// A flash on the braille display, through brltty.
  case braille
}
