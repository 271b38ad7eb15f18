import AnnouncerCore
import Synchronization

/// Speech, as one channel of a run: speaks each item through an ``Announcer`` and
/// reports each of its events as a ``SpeechReport``.
///
/// This is the glue between the delivery loop and the library: it makes no speech
/// decisions of its own.
final class SpeechChannel: DeliveryChannel {
  let channel = Channel.speech
  private let announcer: Announcer
  private let defaults: Announcement
  private let catalog: VoiceCatalog?
  /// Subscribed at once, so that no event of an announcement queued later is missed.
  private let events: AsyncStream<AnnouncerEvent>
  /// The task that reports events; a signal waits for it, so that the outcomes of the
  /// cancelled announcements are written before the process exits.
  private let reporting = Mutex<Task<Void, Never>?>(nil)
  /// Items taken since the announcer's inbox was last waited for.
  private let sinceQueued = Mutex(0)

  /// - Parameters:
  ///   - announcer: speaks the announcements.
  ///   - defaults: the run's announcement, whose voice the command line's check passed.
  ///   - catalog: checks the names each JSON line gives; the command line's were checked already.
  init(announcer: Announcer, defaults: Announcement, catalog: VoiceCatalog? = nil) {
    self.announcer = announcer
    self.defaults = defaults
    self.catalog = catalog
    events = announcer.events()
  }

  func start(reporting reports: any ChannelReporting) {
    let events = self.events
    let reporter = Task {
      for await event in events { reports.report(SpeechReport(event)) }
    }
    reporting.withLock { $0 = reporter }
  }

  /// Keeps the announcer's inbox short; flood control bounds the queue itself.
  func ready() async {
    let due = sinceQueued.withLock { count in
      count += 1
      if count < 32 { return false }
      count = 0
      return true
    }
    if due { await announcer.waitUntilQueued() }
  }

  /// A rejection when `announcement` names a module, voice or language speech-dispatcher lacks.
  func check(_ announcement: Announcement) async -> LineError? {
    // A check cut short lets the line through: the announcer meets the same silent daemon
    // and says so when the announcement gives up.
    guard announcement.voice != defaults.voice, let catalog,
      let problem = try? await catalog.mismatch(with: announcement.voice)?.printedSentence
    else { return nil }
    let english = EnglishOriginals.english(of: problem)
    return LineError(Self.withoutFullStop(problem), english: Self.withoutFullStop(english))
  }

  func deliver(_ item: DeliveryItem) {
    announcer.enqueue(spoken: item.spoken, as: item.id)
  }

  /// Waits until every announcement has its outcome, then closes the connection.
  func finish() async {
    await announcer.waitUntilIdle()
    await announcer.close()
    let reporter = reporting.withLock { $0 }
    await reporter?.value
  }

  /// Gives up everything and cancels our speech, then waits until every outcome has
  /// been reported; for signals. Closing the announcer ends its events, so the wait
  /// is bounded by ``Announcer/close(waitingAtMost:)``.
  func stop() async {
    await announcer.cancelAll()
    await announcer.close()
    let reporter = reporting.withLock { $0 }
    await reporter?.value
  }

  /// `sentence` without its full stop, as a phrase inside another sentence.
  private static func withoutFullStop(_ sentence: String) -> String {
    sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
  }
}
