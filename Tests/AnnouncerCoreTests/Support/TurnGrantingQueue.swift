@testable import AnnouncerCore

/// An ``AnnouncementQueue`` whose speaking turns are granted at once, as with
/// ``AlwaysYourTurn``: for tests about everything but the turn.
///
/// Every `.takeTurn` action is kept in the returned actions and followed by
/// what granting it does.
struct TurnGrantingQueue {
  typealias Action = AnnouncementQueue.Action
  private var queue: AnnouncementQueue

  init(timing: AnnouncerTiming, maxWaiting: Int? = nil, summaryWording: SummaryWording = .english) {
    queue = AnnouncementQueue(timing: timing, maxWaiting: maxWaiting, summaryWording: summaryWording)
  }

  var isIdle: Bool { queue.isIdle }
  var waitingCount: Int { queue.waitingCount }
  var deadline: Duration? { queue.deadline }

  mutating func enqueue(_ announcement: Announcement, id: AnnouncementID, now: Duration) -> [Action] {
    granting(queue.enqueue(announcement, id: id, now: now), now: now)
  }

  mutating func submissionAccepted(
    _ submission: SubmissionID, messageID: MessageID, now: Duration
  )
    -> [Action]
  {
    granting(queue.submissionAccepted(submission, messageID: messageID, now: now), now: now)
  }

  mutating func submissionFailed(_ submission: SubmissionID, now: Duration) -> [Action] {
    granting(queue.submissionFailed(submission, now: now), now: now)
  }

  mutating func handle(_ event: SpeechEvent, now: Duration) -> [Action] {
    granting(queue.handle(event, now: now), now: now)
  }

  mutating func tick(now: Duration) -> [Action] {
    granting(queue.tick(now: now), now: now)
  }

  mutating func cancelAll(now: Duration) -> [Action] {
    granting(queue.cancelAll(now: now), now: now)
  }

  private mutating func granting(_ actions: [Action], now: Duration) -> [Action] {
    var result: [Action] = []
    for action in actions {
      result.append(action)
      if case .takeTurn(let id) = action {
        result += granting(queue.turnTaken(id, now: now), now: now)
      }
    }
    return result
  }
}
