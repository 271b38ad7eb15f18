/// Something that happened to an announcement, for logs, tests and the JSON event stream.
public struct AnnouncerEvent: Sendable, Equatable {
  /// What happened.
  public enum Kind: Sendable, Equatable {
    /// It joined the queue.
    case queued
    /// Attempt number `n` was sent.
    case attempt
    /// Speech of the current attempt began.
    case begin
    /// The current attempt reached an index mark.
    case mark(String)
    /// The current attempt was cancelled or cut short by other speech.
    case interrupted
    /// It is waiting for the channel to be quiet before trying again.
    case waitingForQuiet
    /// The connection was lost; it is waiting for speech-dispatcher to come back.
    case waitingForConnection
    /// Another announcer has the speaking turn; it waits until that one is done.
    case waitingForTurn
    /// It was the same as `into`, which was still waiting, so it was merged into that one.
    case merged(into: AnnouncementID)
    /// It was heard to the end.
    case spoken(duration: Duration)
    /// It was not heard to the end, for `reason`.
    case gaveUp(GiveUpReason)

    /// The event's name in the JSON event stream, such as `waiting-for-quiet`.
    public var name: String {
      switch self {
      case .queued: "queued"
      case .attempt: "attempt"
      case .begin: "begin"
      case .mark: "mark"
      case .interrupted: "interrupted"
      case .waitingForQuiet: "waiting-for-quiet"
      case .waitingForConnection: "waiting-for-connection"
      case .waitingForTurn: "waiting-for-turn"
      case .merged: "merged"
      case .spoken: "spoken"
      case .gaveUp: "gave-up"
      }
    }
  }

  /// The announcement it happened to.
  public var announcement: AnnouncementID
  /// That announcement's text; for the attempts of a text spoken in parts, that part's text.
  public var text: String
  /// The attempt it belongs to, counted within the current part; 0 before the first attempt.
  public var attempt: Int
  /// The part of a long text it belongs to, from 1; always 1 for a text spoken in one piece.
  public var part: Int
  /// How many parts the text is spoken in; 1 for most texts.
  public var parts: Int
  /// When it happened, since the announcer started.
  public var time: Duration
  /// What happened.
  public var kind: Kind
  /// For an `attempt` that resumes after an interruption: where in `text` it starts,
  /// in Unicode scalars (code points); `nil` when it starts at the beginning.
  public var resumeAt: Int?
  /// For an announcement given up because the speech service is unavailable (see
  /// ``GiveUpReason/meansServiceUnavailable``): how many waiting announcements were
  /// given up along with it, for the same reason.
  public var givenUpAlong = 0
  /// For an announcement given up along with an earlier one whose speech service was
  /// found unavailable, without an attempt of its own: that earlier announcement, whose
  /// ``givenUpAlong`` counts this one.
  public var givenUpWith: AnnouncementID?

  /// Creates an event.
  package init(
    announcement: AnnouncementID, text: String, attempt: Int, time: Duration, kind: Kind,
    part: Int = 1, parts: Int = 1
  ) {
    self.announcement = announcement
    self.text = text
    self.attempt = attempt
    self.part = part
    self.parts = parts
    self.time = time
    self.kind = kind
  }
}
