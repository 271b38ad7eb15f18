import AnnouncerCore
import Synchronization

/// The braille display, as one channel of a run: shows each item as the delivery loop
/// hands it over, alone (`--braille-only`) or held until the run's other channels are
/// done with it (`--braille`), which it hears as ``PeerNews``.
///
/// What happens on the display is reported as soon as it is known: a key that said the
/// message was read and each flash's outcome are its ``ChannelReport``s
/// (``BrailleAcknowledgement``, ``FlashReport``), and a display that went away is said in
/// one line, once.
final class BrailleChannel: DeliveryChannel {
  let channel = Channel.braille
  let showsText = true
  /// Shows the flashes.
  let flasher: BrailleFlasher
  private let terminal: Terminal
  private let book = FlashBook()
  /// Subscribed at once, so that no event of a flash shown later is missed.
  private let events: AsyncStream<BrailleEvent>
  private let reporting = Mutex<Task<Void, Never>?>(nil)
  /// Whether each flash is held until the run's other channels are done with its item.
  private let followsOthers: Bool
  /// The longest a flash may take, alone: `--timeout`.
  private let limit: Duration?

  /// The flashes, shared with the task that reports the display's events.
  private final class FlashBook: Sendable {
    let flashes = Mutex<Flashes>(Flashes())
  }

  /// A flash held until the run's other channels are done with its announcement.
  private struct Held {
    var flash: BrailleFlashID
    var peers: Set<Channel>
    var ending = PeerEnding.delivered
    /// Whether it shows flood control's summary, which is no announcement of the user's.
    var isSummary = false
  }

  private struct Flashes {
    /// The flash of each announcement that another channel of the run is not done with,
    /// the channels not done with it, and how those that are were done.
    var byAnnouncement: [AnnouncementID: Held] = [:]
    /// The announcement and text of every flash not yet ended, for the events.
    var announcements: [BrailleFlashID: (id: AnnouncementID, text: String, withSpeech: Bool)] = [:]
    /// With flood control (`--braille-only`): the flashes not yet on the display, oldest first.
    var waiting: [BrailleFlashID] = []
    /// Flood control's summary waiting ahead of them, and how many it counts.
    var summary: BrailleFlashID?
    var skipped = 0

    /// The flash has reached the display, or ended: it no longer waits, and a summary
    /// that did is no longer added to.
    mutating func started(_ flash: BrailleFlashID) {
      if let index = waiting.firstIndex(of: flash) { waiting.remove(at: index) }
      if flash == summary {
        summary = nil
        skipped = 0
      }
    }
  }

  /// `--braille-only`'s flood control: the most flashes that wait for the display, and
  /// the words of the summary shown in place of those left out.
  private let floodControl: (maxWaiting: Int, wording: SummaryWording)?

  /// - Parameters:
  ///   - flasher: the display's flasher.
  ///   - terminal: where a display that went away is said.
  ///   - followsOthers: whether each flash is held until the run's other channels are
  ///     done with its item (`--braille`, beside speech).
  ///   - limit: alone, the longest a flash may take (`--timeout`).
  ///   - floodControl: alone, the most flashes that may wait for the display
  ///     (`--max-queue`), and the words of flood control's summary. When more wait, the
  ///     oldest is left out (`not-shown`, `skipped`), and one summary such as "12
  ///     messages skipped" is shown ahead of those kept, as speech says one.
  init(
    flasher: BrailleFlasher, terminal: Terminal, followsOthers: Bool, limit: Duration? = nil,
    floodControl: (maxWaiting: Int, wording: SummaryWording)? = nil
  ) {
    self.flasher = flasher
    self.terminal = terminal
    self.followsOthers = followsOthers
    self.limit = limit
    self.floodControl = floodControl
    events = flasher.events()
  }

  func start(reporting reports: any ChannelReporting) {
    let events = self.events
    let book = self.book
    let terminal = self.terminal
    let reporter = Task {
      var said = false
      // The key that said a flash was read comes just before its outcome.
      var keys: [BrailleFlashID: String] = [:]
      for await event in events {
        book.flashes.withLock { $0.started(event.flash) }
        switch event.kind {
        case .acknowledged(let key):
          guard let shown = book.flashes.withLock({ $0.announcements[event.flash] }) else { break }
          keys[event.flash] = key
          reports.report(BrailleAcknowledgement(id: shown.id, text: shown.text, key: key, time: event.time))
        case .finished(let outcome):
          if let shown = book.flashes.withLock({ $0.announcements.removeValue(forKey: event.flash) }) {
            // At once: no record waits for the end of the run, so a SIGKILL loses at most
            // what was in flight.
            reports.report(
              FlashReport(
                id: shown.id, text: shown.text, outcome: outcome, key: keys.removeValue(forKey: event.flash),
                withSpeech: shown.withSpeech, time: event.time))
          }
          // One line for the run: the rest of the flashes meet the same missing display.
          if let problem = event.problem, !said {
            said = true
            terminal.error(problem.printedMessage)
          }
        case .waitingForTurn, .shown, .released:
          break
        }
      }
    }
    reporting.withLock { $0 = reporter }
  }

  func deliver(_ item: DeliveryItem) {
    let peers = followsOthers ? item.channels.subtracting([channel]) : []
    show(item.shown, for: item.id, heldFor: peers, limit: peers.isEmpty ? limit : nil)
  }

  /// Shows `text` for announcement `id`, held until each of `peers` is done with it.
  @discardableResult
  func show(
    _ text: String, for id: AnnouncementID, heldFor peers: Set<Channel>, limit: Duration? = nil
  ) -> BrailleFlashID {
    let withSpeech = !peers.isEmpty
    return book.flashes.withLock { flashes in
      let flash = flasher.show(text, withSpeech: withSpeech, limit: limit)
      if withSpeech { flashes.byAnnouncement[id] = Held(flash: flash, peers: peers) }
      flashes.announcements[flash] = (id, text, withSpeech)
      if !withSpeech, let floodControl { bound(&flashes, adding: flash, to: floodControl, limit: limit) }
      return flash
    }
  }

  /// Adds `flash`, just asked for, to those waiting; leaves out the oldest waiting flash
  /// while more than `maxWaiting` wait, and shows one summary of all that were left out
  /// ahead of those kept: a new one, with the new count, in place of one that has not
  /// reached the display yet.
  private func bound(
    _ flashes: inout Flashes, adding flash: BrailleFlashID,
    to floodControl: (maxWaiting: Int, wording: SummaryWording), limit: Duration?
  ) {
    // The only flash not ended takes the display at once: it does not wait.
    let isCurrent = flashes.announcements.count == 1 && flashes.summary == nil
    if !isCurrent { flashes.waiting.append(flash) }
    guard flashes.waiting.count > floodControl.maxWaiting else { return }
    while flashes.waiting.count > floodControl.maxWaiting {
      flasher.skip(flashes.waiting.removeFirst())
      flashes.skipped += 1
    }
    if let summary = flashes.summary { flasher.skip(summary) }
    let summary = flasher.show(
      floodControl.wording.sentence(flashes.skipped), withSpeech: false, limit: limit,
      before: flashes.waiting.first)
    flashes.summary = summary
  }

  func hear(_ news: PeerNews) {
    switch news {
    case .finished(let peer, let id, let ending):
      let released = book.flashes.withLock { flashes -> Held? in
        guard var held = flashes.byAnnouncement[id] else { return nil }
        held.peers.remove(peer)
        held.ending = Self.combined(held.ending, ending)
        flashes.byAnnouncement[id] = held.peers.isEmpty ? nil : held
        return held.peers.isEmpty ? held : nil
      }
      guard let released else { return }
      flasher.othersFinished(released.flash, release: Self.release(after: released.ending))
    case .summaryBegan(let peer, let id, let text):
      showSummary(text, as: id, heldFor: peer)
    }
  }

  /// How the other channels were done with an announcement, from two of their endings:
  /// one that left it out decides, then one that failed.
  private static func combined(_ first: PeerEnding, _ second: PeerEnding) -> PeerEnding {
    for ending in [PeerEnding.skipped, .failed, .notDelivered] where first == ending || second == ending {
      return ending
    }
    return .delivered
  }

  /// What the flash learns of how the other channels were done with its item.
  private static func release(after ending: PeerEnding) -> FlashRelease {
    switch ending {
    case .delivered, .notDelivered: .runItsTime
    case .skipped: .leaveOut
    case .failed: .endNow
    }
  }

  /// Shows flood control's summary ("12 messages skipped"), which another channel began
  /// under `id`, ahead of the flash of the oldest announcement still held, and holds it
  /// until that channel is done with it. It is no announcement of the user's: no outcome
  /// is reported for it.
  private func showSummary(_ text: String, as id: AnnouncementID, heldFor peer: Channel) {
    book.flashes.withLock { flashes in
      guard flashes.byAnnouncement[id] == nil else { return }
      // Every announcement held waits behind the summary; the oldest of them comes
      // right after it.
      let next = flashes.byAnnouncement.filter { !$0.value.isSummary }.min {
        $0.key.rawValue < $1.key.rawValue
      }
      let flash = flasher.show(text, withSpeech: true, before: next?.value.flash)
      flashes.byAnnouncement[id] = Held(flash: flash, peers: [peer], isSummary: true)
    }
  }

  /// Waits until every flash has its outcome, then gives the display back and closes
  /// the connection. Each outcome was reported as it came: the channel keeps none of
  /// those ended, so a run that follows `tail -f` does not grow with its lines.
  func finish() async {
    await flasher.drain()
    await flasher.close()
    let reporter = reporting.withLock { $0 }
    await reporter?.value
  }

  /// How many flashes the channel holds now: those not yet ended, and flood control's.
  /// For tests.
  var keptCount: Int {
    book.flashes.withLock { $0.byAnnouncement.count + $0.announcements.count + $0.waiting.count }
  }

  /// How many flashes are held until the other channels are done with them. For tests.
  var flashesAwaitingSpeech: Int { book.flashes.withLock { $0.byAnnouncement.count } }

  /// Gives the display back while the process is stopped (Control-Z).
  func suspend() async {
    await flasher.suspend()
  }

  /// Shows the flash still due again once the process continues.
  func resume() async {
    flasher.resume()
  }

  /// Ends every flash and gives the display back at once, then closes: for a signal.
  func stop() async {
    await flasher.cancelAll()
    await flasher.close()
    let reporter = reporting.withLock { $0 }
    await reporter?.value
  }
}
