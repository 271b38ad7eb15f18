public import AnnouncerCore
import DequeModule
import Synchronization

/// A speech backend whose events the test writes: it records every request,
/// gives out increasing message ids, and emits whatever events the test asks for.
///
/// It models the connection's voice settings as speech-dispatcher keeps them: every `SET`
/// stays until changed, setting the module or voice type forgets the synthesis voice, and
/// a reconnect starts again from the defaults. Before each announcement it follows the same
/// ``SettingsPlan`` as ``SpeechdClient``, reading the defaults from whatever the connection
/// holds at the moment the plan asks; so a setting that leaks from one message into the
/// next, or defaults read too late, show in ``Said/spokenWith``.
public final class ScriptedBackend: SpeechBackend {
  /// One request the announcer sent, with the id it was given.
  public struct Said: Sendable {
    public var request: SpeechRequest
    public var id: MessageID
    /// What the connection held when an announcement was sent; `nil` for a probe.
    package var spokenWith: ConnectionSettings?
  }

  /// What every new connection holds.
  package static let defaults = ConnectionSettings(
    outputModule: "espeak-ng", language: "en", voiceType: .male1, rate: 0, pitch: 0, volume: 100,
    punctuation: VoiceOptions.Punctuation.none)

  /// The connection as the daemon holds it, and the client's plan for it.
  private let connection = Mutex((daemon: ScriptedBackend.defaults, plan: SettingsPlan()))

  /// How many times the client read the connection's defaults from the daemon.
  package var defaultsReadCount: Int { readCount.withLock { $0 } }
  private let readCount = Mutex(0)

  public let events: AsyncStream<SpeechEvent>
  /// Every request, in order, as it is said.
  public let said: AsyncStream<Said>

  private let saidSink: AsyncStream<Said>.Continuation
  private let state = Mutex((nextID: 100, failing: false, cancels: 0))
  private let feed = EventFeed()
  private let gate = ReplyGate()

  public init() {
    (said, saidSink) = AsyncStream.makeStream(of: Said.self)
    let feed = self.feed
    events = AsyncStream(unfolding: { await feed.next() })
  }

  /// From now on, every `say` fails as if the connection were gone.
  public func failFromNowOn() { state.withLock { $0.failing = true } }

  /// From now on, `say`, `cancelAll` and `close` are not answered until ``answerAgain()``,
  /// as with a speech-dispatcher stopped with SIGSTOP: libspeechd's calls block on the reply.
  /// A request is still recorded in ``said`` when it is sent.
  public func stopAnswering() { gate.hold() }

  /// Answers every call that waits, and every call from now on, as a continued daemon does.
  public func answerAgain() { gate.release() }

  /// How many times the announcer cancelled speech.
  public var cancelCount: Int { state.withLock { $0.cancels } }

  /// Emits `event` without waiting for anyone to take it.
  public func emit(_ event: SpeechEvent) { feed.push(event) }

  /// Emits `event` and returns once the announcer's loop has handled it.
  ///
  /// The announcer's relay asks for the next event only after it has put this one
  /// in the loop's inbox; `waitUntilQueued` then goes through that inbox behind it.
  public func emit(_ event: SpeechEvent, handledBy announcer: Announcer) async {
    let position = feed.push(event)
    await feed.waitUntilTaken(position)
    await announcer.waitUntilQueued()
  }

  public func say(_ request: SpeechRequest) async throws(SpeechBackendError) -> MessageID {
    let (id, failing) = state.withLock { state in
      state.nextID += 1
      return (state.nextID, state.failing)
    }
    if failing { throw SpeechBackendError("scripted failure") }
    var spokenWith: ConnectionSettings?
    if request.purpose == .announcement {
      spokenWith = connection.withLock { connection in
        let held = connection.daemon
        let changes = connection.plan.changes(for: request.voice) {
          readCount.withLock { $0 += 1 }
          return held
        }
        for change in changes { connection.daemon.apply(change) }
        return connection.daemon
      }
    }
    saidSink.yield(Said(request: request, id: id, spokenWith: spokenWith))
    await gate.pass()
    return id
  }

  /// The connection is lost and made again: it holds the defaults once more, and so does
  /// the new client's view of it. Emits nothing; the test emits the events it wants.
  public func reconnect() {
    connection.withLock { $0 = (Self.defaults, SettingsPlan()) }
  }

  public func cancelAll() async {
    await gate.pass()
    state.withLock { $0.cancels += 1 }
  }

  public func close() async {
    await gate.pass()
    feed.finish()
    saidSink.finish()
  }
}

/// Holds calls back while the scripted daemon is not answering.
private final class ReplyGate: Sendable {
  private let state = Mutex((held: false, waiters: [CheckedContinuation<Void, Never>]()))

  func hold() { state.withLock { $0.held = true } }

  func release() {
    let waiters = state.withLock { state in
      state.held = false
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns at once while answering, otherwise once released.
  func pass() async {
    await withCheckedContinuation { continuation in
      let open = state.withLock { state in
        if state.held { state.waiters.append(continuation) }
        return !state.held
      }
      if open { continuation.resume() }
    }
  }
}

/// The events a ``ScriptedBackend`` hands out, and how far its reader has got.
private final class EventFeed: Sendable {
  private struct State {
    var pending = Deque<SpeechEvent>()
    var reader: CheckedContinuation<SpeechEvent?, Never>?
    /// How many events were pushed.
    var pushed = 0
    /// How many times the reader asked for an event; it asks for number `n + 1` only
    /// after it has finished with number `n`.
    var asked = 0
    var finished = false
    var takenWaiters: [(position: Int, waiter: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())

  /// Adds an event and returns its position, counted from 1.
  @discardableResult
  func push(_ event: SpeechEvent) -> Int {
    let (position, reader) = state.withLock { state in
      state.pushed += 1
      if let reader = state.reader {
        state.reader = nil
        return (state.pushed, Optional(reader))
      }
      state.pending.append(event)
      return (state.pushed, nil)
    }
    reader?.resume(returning: event)
    return position
  }

  /// Returns once the reader has finished with the event at `position`.
  func waitUntilTaken(_ position: Int) async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state in
        if state.asked > position || state.finished { return true }
        state.takenWaiters.append((position, continuation))
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// The next event, once there is one; `nil` once finished.
  func next() async -> SpeechEvent? {
    let released = state.withLock { state in
      state.asked += 1
      let asked = state.asked
      let ready = state.takenWaiters.filter { $0.position < asked }
      state.takenWaiters.removeAll { $0.position < asked }
      return ready.map(\.waiter)
    }
    for waiter in released { waiter.resume() }
    return await withCheckedContinuation { continuation in
      let ready: SpeechEvent?? = state.withLock { state in
        if let event = state.pending.popFirst() { return .some(event) }
        if state.finished { return .some(nil) }
        state.reader = continuation
        return .none
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Ends the stream; anyone waiting is let go.
  func finish() {
    let (reader, waiters) = state.withLock { state in
      state.finished = true
      defer {
        state.reader = nil
        state.takenWaiters = []
      }
      return (state.reader, state.takenWaiters.map(\.waiter))
    }
    reader?.resume(returning: nil)
    for waiter in waiters { waiter.resume() }
  }
}

extension ConnectionSettings {
  /// One `SET`, with the effect speech-dispatcher 0.11.4 gives it (its `set.c`).
  package mutating func apply(_ change: SettingChange) {
    switch change {
    case .outputModule(let name):
      outputModule = name
      voiceName = nil
    case .language(let tag): language = tag
    case .voiceType(let type):
      voiceType = type
      voiceName = nil
    case .voiceName(let name):
      voiceName = name
      voiceType = nil
    case .rate(let value): rate = value
    case .pitch(let value): pitch = value
    case .volume(let value): volume = value
    case .pitchRange(let value): pitchRange = value
    case .punctuation(let level): punctuation = level
    case .spelling(let on): spell = on
    }
  }
}
