import AnnouncerCore
import Synchronization

/// The braille display of one run: shows each announcement as it is queued, and tells
/// the flasher when its speech ended (`--braille`), or shows it alone
/// (`--braille-only`, see ``AnnounceRun/showBrailleOnly(on:)``).
///
/// It is an ``EventSink`` of the speech, so the display follows the same queue as the
/// speech, in the same order. What happens on the display goes to the run's other sinks:
/// a key that said the message was read and each flash's outcome are their
/// ``ChannelReport``s (``BrailleAcknowledgement``, ``FlashReport``) as soon as they are
/// known, and a display that went away is said in one line, once.
final class BrailleChannel: EventSink, StoppableChannel {
  /// Shows the flashes.
  let flasher: BrailleFlasher
  private let sinks: [any EventSink]
  private let terminal: Terminal
  private let book = FlashBook()
  private let reporter: Task<Void, Never>

  /// The flashes, shared with the task that reports the display's events.
  private final class FlashBook: Sendable {
    let flashes = Mutex<Flashes>(Flashes())
  }

  private struct Flashes {
    /// The flash of each announcement whose speech has not ended.
    var byAnnouncement: [AnnouncementID: BrailleFlashID] = [:]
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
  ///   - sinks: where the keys that acknowledge and each flash's outcome go.
  ///   - terminal: where a display that went away is said.
  ///   - floodControl: with `--braille-only`, the most flashes that may wait for the
  ///     display (`--max-queue`), and the words of flood control's summary. When more
  ///     wait, the oldest is left out (`not-shown`, `skipped`), and one summary such as
  ///     "12 messages skipped" is shown ahead of those kept, as speech says one.
  ///   - whenFinished: called with each flash's announcement, text, outcome and time, in
  ///     order, after its `acknowledged` and before the sinks hear of it
  ///     (`--braille-only` counts its failures from here).
  init(
    flasher: BrailleFlasher, sinks: [any EventSink], terminal: Terminal,
    floodControl: (maxWaiting: Int, wording: SummaryWording)? = nil,
    whenFinished: (@Sendable (AnnouncementID, String, BrailleOutcome, Duration) -> Void)? = nil
  ) {
    self.flasher = flasher
    self.sinks = sinks
    self.terminal = terminal
    self.floodControl = floodControl
    let events = flasher.events()
    let book = self.book
    reporter = Task {
      var said = false
      // The key that said a flash was read comes just before its outcome.
      var keys: [BrailleFlashID: String] = [:]
      for await event in events {
        book.flashes.withLock { $0.started(event.flash) }
        switch event.kind {
        case .acknowledged(let key):
          guard let shown = book.flashes.withLock({ $0.announcements[event.flash] }) else { break }
          keys[event.flash] = key
          let acknowledgement = BrailleAcknowledgement(
            id: shown.id, text: shown.text, key: key, time: event.time)
          for sink in sinks { sink.reported(acknowledgement) }
        case .finished(let outcome):
          if let shown = book.flashes.withLock({ $0.announcements.removeValue(forKey: event.flash) }) {
            whenFinished?(shown.id, shown.text, outcome, event.time)
            let report = FlashReport(
              id: shown.id, text: shown.text, outcome: outcome, key: keys.removeValue(forKey: event.flash),
              withSpeech: shown.withSpeech, time: event.time)
            // At once: no record waits for the end of the run, so a SIGKILL loses at most
            // what was in flight.
            for sink in sinks { sink.reported(report) }
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
  }

  /// Shows `text` for announcement `id`; `withSpeech` holds it until its speech ends.
  @discardableResult
  func show(
    _ text: String, for id: AnnouncementID, withSpeech: Bool, limit: Duration? = nil
  ) -> BrailleFlashID {
    book.flashes.withLock { flashes in
      let flash = flasher.show(text, withSpeech: withSpeech, limit: limit)
      if withSpeech { flashes.byAnnouncement[id] = flash }
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

  func queued(_ announcement: Announcement, as id: AnnouncementID) {
    // The display shows the words, never SSML's markup, on one line.
    let spoken = announcement.asSpoken
    show(HistoryWords.shown(spoken.text, ssml: spoken.isSSML), for: id, withSpeech: true)
  }

  func record(_ event: AnnouncerEvent) {
    let outcome: Outcome
    switch event.kind {
    case .spoken(let duration): outcome = .spoken(attempts: event.attempt, duration: duration)
    case .gaveUp(let reason): outcome = .gaveUp(reason)
    // A merged announcement is spoken as the one it joined: its own flash need not wait.
    case .merged: outcome = .gaveUp(.dropped)
    case .attempt where event.announcement.rawValue < 0:
      showSummary(event)
      return
    case .queued, .attempt, .begin, .mark, .interrupted, .waitingForQuiet, .waitingForConnection,
      .waitingForTurn:
      return
    }
    guard let flash = book.flashes.withLock({ $0.byAnnouncement.removeValue(forKey: event.announcement) })
    else {
      return
    }
    flasher.speechFinished(flash, outcome: outcome)
  }

  /// Shows flood control's summary ("12 messages skipped", a negative id) as the speech
  /// starts saying it, ahead of the flash of the announcement it is said before, and
  /// holds it until its speech ends. It is no announcement of the user's: no outcome is
  /// reported for it.
  private func showSummary(_ event: AnnouncerEvent) {
    book.flashes.withLock { flashes in
      guard flashes.byAnnouncement[event.announcement] == nil else { return }
      // Every announcement whose speech has not ended waits behind the summary; the
      // oldest of them is spoken right after it.
      let next = flashes.byAnnouncement.filter { $0.key.rawValue > 0 }.min {
        $0.key.rawValue < $1.key.rawValue
      }
      let flash = flasher.show(event.text, withSpeech: true, before: next?.value)
      flashes.byAnnouncement[event.announcement] = flash
    }
  }

  func rejected(line: Int, input: String, reason: String, time: Duration) {}

  /// Waits until every flash has its outcome, then gives the display back and closes
  /// the connection. Each outcome was reported as it came: the channel keeps none of
  /// those ended, so a run that follows `tail -f` does not grow with its lines.
  func finish() async {
    await flasher.drain()
    await flasher.close()
    await reporter.value
  }

  /// How many flashes the channel holds now: those not yet ended, and flood control's.
  /// For tests.
  var keptCount: Int {
    book.flashes.withLock { $0.byAnnouncement.count + $0.announcements.count + $0.waiting.count }
  }

  /// How many flashes are held until their speech ends. For tests.
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
    await reporter.value
  }
}
