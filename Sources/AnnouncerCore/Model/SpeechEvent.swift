/// A message id that speech-dispatcher gave to one of our messages.
public typealias MessageID = Int

/// What a speech backend reports, one callback at a time.
///
/// Events name the message they concern. They may arrive before the backend's
/// `say` has returned that message's id, and events for messages that are not
/// ours may arrive too; the state machines sort that out.
public enum SpeechEvent: Sendable, Equatable {
  /// The message started speaking.
  case began(MessageID)
  /// The message was spoken to its end.
  case ended(MessageID)
  /// The message was cancelled or discarded.
  case cancelled(MessageID)
  /// The message was paused.
  case paused(MessageID)
  /// The message resumed after a pause.
  case resumed(MessageID)
  /// The message reached an index mark.
  case indexMark(MessageID, name: String)
  /// The connection to the speech service is gone; no events come until it is restored.
  case connectionLost
  /// A new connection to the speech service is open after ``connectionLost``.
  case connectionRestored

  /// The message this event concerns, or `nil` for connection events.
  package var messageID: MessageID? {
    switch self {
    case .began(let id), .ended(let id), .cancelled(let id), .paused(let id), .resumed(let id),
      .indexMark(let id, _):
      id
    case .connectionLost, .connectionRestored: nil
    }
  }
}
