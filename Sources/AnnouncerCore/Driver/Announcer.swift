import Synchronization

/// Speaks announcements one at a time, retries them politely after interruptions,
/// and tells you whether each one was heard.
///
/// ```swift
/// let announcer = try await Announcer.speechd()
/// let outcome = await announcer.announce("Saved", retryTimeout: .seconds(2))
/// await announcer.close()
/// ```
///
/// An `Announcer` is the driver around `AnnouncementQueue`: one loop owns the
/// queue, reads one merged stream of inputs (requests, speech events, answers
/// from the backend, timer wake-ups) and performs the actions the queue returns.
/// Time comes from the injected clock, so tests can use a manual one.
public final class Announcer: Sendable {
  enum Input {
    case enqueue(AnnouncementID, Announcement, CheckedContinuation<Outcome, Never>?)
    case speech(SpeechEvent)
    case accepted(SubmissionID, MessageID)
    case failed(SubmissionID)
    case cancelAll(CheckedContinuation<Void, Never>)
    case whenIdle(CheckedContinuation<Void, Never>)
    case whenRoom(below: Int, CheckedContinuation<Void, Never>)
    case whenQueued(CheckedContinuation<Void, Never>)
  }

  enum BackendOperation {
    case say(SpeechRequest, SubmissionID)
    case cancel(CheckedContinuation<Void, Never>?)
  }

  /// The retry timeout used when a call gives none.
  public let defaultTimeout: Duration
  /// Where it speaks, for messages to people, such as speech-dispatcher's address
  /// when it was made by ``speechd(address:appName:defaultTimeout:maxWaiting:environment:whenTurnsUnavailable:)``;
  /// `nil` for a backend given to ``init(backend:clock:defaultTimeout:timing:maxWaiting:turns:summaryWording:)``.
  package let speechService: String?

  /// The loop that owns the queue.
  private let loop: ActionLoop<DriverLoop>
  private let backend: any SpeechBackend
  /// Whether the backend still answers, as the loop last found.
  private let backendAnswers = BackendAnswers()
  private let subscribers = EventHub<AnnouncerEvent>()
  private let lastID = Mutex(0)
  /// Relays the backend's events into the loop's inputs.
  private let forwarder: Task<Void, Never>

  /// Creates an announcer that speaks through `backend`.
  ///
  /// - Parameters:
  ///   - backend: where messages go, usually a ``SpeechdClient``.
  ///   - clock: the clock all bounds and delays are measured with.
  ///   - defaultTimeout: the retry window for announcements that give none.
  ///   - timing: probe intervals and stall bounds.
  ///   - maxWaiting: turns on flood control (see `AnnouncementQueue`): at most this
  ///     many announcements wait; `nil` lets the queue grow.
  ///   - turns: the speaking turn shared with other announcers; by default there are none.
  ///   - summaryWording: the words of flood control's summary; English by default.
  public convenience init<C: Clock>(
    backend: some SpeechBackend, clock: C = ContinuousClock(),
    defaultTimeout: Duration = Announcement.defaultRetryTimeout,
    timing: AnnouncerTiming = AnnouncerTiming(), maxWaiting: Int? = nil,
    turns: some SpeakingTurns = AlwaysYourTurn(), summaryWording: SummaryWording = .english
  ) where C.Duration == Duration {
    self.init(
      backend: backend, clock: clock, defaultTimeout: defaultTimeout, timing: timing,
      maxWaiting: maxWaiting, turns: turns, speechService: nil, summaryWording: summaryWording)
  }

  init<C: Clock>(
    backend: some SpeechBackend, clock: C, defaultTimeout: Duration, timing: AnnouncerTiming,
    maxWaiting: Int?, turns: some SpeakingTurns, speechService: String?,
    summaryWording: SummaryWording = .english
  ) where C.Duration == Duration {
    self.backend = backend
    self.defaultTimeout = defaultTimeout
    self.speechService = speechService
    let (operationStream, operations) = AsyncStream.makeStream(of: BackendOperation.self)
    let subscribers = self.subscribers
    let backendAnswers = self.backendAnswers
    let loop = ActionLoop<DriverLoop>(time: TimeSource(clock), turns: turns) {
      DriverLoop(
        queue: AnnouncementQueue(timing: timing, maxWaiting: maxWaiting, summaryWording: summaryWording),
        operations: operations,
        publish: subscribers.publish, backendAnswers: backendAnswers)
    }
    self.loop = loop
    forwarder = Task {
      for await event in backend.events { loop.send(.speech(event)) }
    }
    // Performs backend operations one at a time, in order; it ends by itself once the
    // loop has finished the operations stream.
    Task {
      for await operation in operationStream {
        switch operation {
        case .say(let request, let submission):
          do {
            let id = try await backend.say(request)
            loop.send(.accepted(submission, id))
          } catch {
            loop.send(.failed(submission))
          }
        case .cancel(let done):
          await backend.cancelAll()
          done?.resume()
        }
      }
    }
  }

  deinit {
    loop.finish()
  }

  /// Queues `text` and waits for its final outcome.
  ///
  /// - Parameters:
  ///   - text: plain text; it is spoken literally, markup included.
  ///   - retryTimeout: how long after the first attempt a retry may still start; 0 means no retry.
  ///   - priority: speech-dispatcher's priority for each attempt.
  ///   - delay: how long to wait before the first attempt.
  ///   - voice: how it should sound.
  ///   - resume: whether a retry resumes at the sentence that was cut off; `false` repeats the whole text.
  public func announce(
    _ text: String, retryTimeout: Duration? = nil, priority: SpeechPriority = .text,
    delay: Duration = .zero, voice: VoiceOptions = VoiceOptions(), resume: Bool = true
  ) async -> Outcome {
    await announce(
      Announcement(
        text, priority: priority, retryTimeout: retryTimeout, delay: delay, voice: voice,
        resume: resume))
  }

  /// Queues `announcement` and waits for its final outcome.
  public func announce(_ announcement: Announcement) async -> Outcome {
    let id = takeID()
    let admitted = admitted(announcement)
    return await withCheckedContinuation { continuation in
      if !loop.send(.enqueue(id, admitted, continuation)) {
        continuation.resume(returning: .gaveUp(.cancelled))
      }
    }
  }

  /// Queues `announcement` without waiting; its outcome arrives as a `spoken` or `gave-up` event.
  @discardableResult
  public func enqueue(_ announcement: Announcement) -> AnnouncementID {
    let id = takeID()
    loop.send(.enqueue(id, admitted(announcement), nil))
    return id
  }

  /// The id the next announcement queued will have, taken now, for ``enqueue(_:as:)``.
  package func nextID() -> AnnouncementID { takeID() }

  /// Queues `announcement` under `id`, which ``nextID()`` gave, without waiting.
  ///
  /// Whoever is told of `id` before this call hears of it before any of its events: an
  /// announcement equal to one still waiting is merged, and its `merged` event published,
  /// as soon as the queue takes it.
  package func enqueue(_ announcement: Announcement, as id: AnnouncementID) {
    loop.send(.enqueue(id, admitted(announcement), nil))
  }

  /// ``enqueue(_:as:)`` for an announcement already made speakable
  /// (``Announcement/asSpoken``), as the command's delivery loop makes each line once
  /// for every channel: the text is not walked again.
  package func enqueue(spoken announcement: Announcement, as id: AnnouncementID) {
    loop.send(.enqueue(id, withDefaultTimeout(announcement), nil))
  }

  /// `announcement` as the queue takes it: ``Announcement/asSpoken``, with the
  /// announcer's default retry window where it gave none.
  private func admitted(_ announcement: Announcement) -> Announcement {
    withDefaultTimeout(announcement.asSpoken)
  }

  /// `announcement` with the announcer's default retry window where it gave none.
  private func withDefaultTimeout(_ announcement: Announcement) -> Announcement {
    var admitted = announcement
    if admitted.chosenRetryTimeout == nil { admitted.retryTimeout = defaultTimeout }
    return admitted
  }

  /// A stream of everything that happens from now on. Subscribe before queueing to miss nothing.
  public func events() -> AsyncStream<AnnouncerEvent> {
    subscribers.subscribe()
  }

  /// Returns once every queued announcement has its outcome.
  public func waitUntilIdle() async {
    await withCheckedContinuation { continuation in
      if !loop.send(.whenIdle(continuation)) { continuation.resume() }
    }
  }

  /// Returns once every announcement enqueued before this call has reached the queue.
  ///
  /// With flood control, the queue drops instead of growing; a producer that calls
  /// this every few ``enqueue(_:)`` calls keeps the announcer's inbox from growing
  /// instead, however fast its input arrives.
  package func waitUntilQueued() async {
    await withCheckedContinuation { continuation in
      if !loop.send(.whenQueued(continuation)) { continuation.resume() }
    }
  }

  /// Returns once fewer than `limit` announcements wait behind the one in flight.
  ///
  /// A producer that calls this before each ``enqueue(_:)`` keeps memory bounded by
  /// the queue, however fast its input arrives.
  package func waitForRoom(below limit: Int) async {
    await withCheckedContinuation { continuation in
      if !loop.send(.whenRoom(below: limit, continuation)) {
        continuation.resume()
      }
    }
  }

  /// Gives up every announcement with reason `cancelled` and cancels our speech.
  ///
  /// Returns once speech-dispatcher has been told to cancel, or after `bound`
  /// when it does not answer.
  public func cancelAll(waitingAtMost bound: Duration = .seconds(1)) async {
    let loop = self.loop
    _ = await Race.within(bound) {
      await withCheckedContinuation { continuation in
        if !loop.send(.cancelAll(continuation)) { continuation.resume() }
      }
    }
  }

  /// Stops the announcer and closes the backend. Pending announcements are not spoken.
  ///
  /// Waits at most `bound` for the backend: a wedged speech-dispatcher may never answer.
  /// One that an announcement already found not answering is not waited for at all: its
  /// close is queued behind the call it never answered.
  public func close(waitingAtMost bound: Duration = .seconds(2)) async {
    let loop = self.loop
    loop.finish()
    let backend = self.backend
    let answers = backendAnswers.value
    _ = await Race.within(answers ? bound : .zero) {
      await loop.closed()
      await backend.close()
    }
    forwarder.cancel()
    subscribers.finishAll()
  }

  private func takeID() -> AnnouncementID {
    lastID.withLock {
      $0 += 1
      return AnnouncementID($0)
    }
  }
}

/// Whether the backend answered the last call the loop heard of; shared by the loop and ``Announcer/close(waitingAtMost:)``.
final class BackendAnswers: Sendable {
  private let state = Atomic(true)

  var value: Bool {
    get { state.load(ordering: .acquiring) }
    set { state.store(newValue, ordering: .releasing) }
  }
}
