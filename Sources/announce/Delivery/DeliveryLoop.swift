import AnnouncerCore
import Synchronization

/// The one input loop of a run, for every channel of its ``DeliveryPlan``: it reads each
/// input line once, builds its ``DeliveryItem`` once, and hands it to every channel; each
/// channel's report goes to the sinks, to the plan (which counts what was not delivered)
/// and, as ``PeerNews``, to the other channels. Speech alone, braille alone and both run
/// through it the same way.
final class DeliveryLoop: ChannelReporting {
  private let plan: DeliveryPlan
  private let channels: [any DeliveryChannel]
  private let sinks: [any EventSink]
  private let terminal: Terminal
  private let defaults: Announcement
  private let clock = ContinuousClock()
  private let started: ContinuousClock.Instant
  private let summary = Mutex(RunSummary())
  /// The item being handed to the channels, and the news of it that came meanwhile:
  /// news of an item reaches a channel only after every channel has it. A line equal to
  /// one still waiting is merged by the speech at once, and a flash registered after its
  /// speech had ended was held on the display for ever (issue 45, defect 1).
  private let handing = Mutex<(item: AnnouncementID?, held: [(news: PeerNews, from: Channel)])>((nil, []))

  /// - Parameters:
  ///   - plan: the run's channels, and which of them must deliver.
  ///   - channels: the channels opened for the plan, in the order they are stopped in
  ///     and finish in (speech first: the others hear of its outcomes before they close).
  ///   - sinks: where every report and every rejected line goes.
  ///   - terminal: where failures are said, one sentence each.
  ///   - defaults: the announcement every line becomes, before its own JSON options.
  init(
    plan: DeliveryPlan, channels: [any DeliveryChannel], sinks: [any EventSink], terminal: Terminal,
    defaults: Announcement
  ) {
    self.plan = plan
    self.channels = channels
    self.sinks = sinks
    self.terminal = terminal
    self.defaults = defaults
    started = clock.now
  }

  /// Delivers every line on every channel, waits until each channel is done, and sums up.
  func run(_ lines: AsyncStream<InputLines.Line>, reading: TextReading) async -> RunSummary {
    for channel in channels { channel.start(reporting: self) }
    let used = Set(channels.map(\.channel))
    let showing = channels.contains { $0.showsText }
    var rejected = 0
    var count = 0
    for await line in lines {
      for channel in channels { await channel.ready() }
      let read = AnnouncementLineReader.read(line, reading: reading, defaults: defaults)
      switch await checked(read.map(\.announcement)) {
      case .success(let announcement):
        // A line of nothing but escape sequences is as blank as an empty one.
        guard announcement.isSSML || SpeakableText.hasSpeech(announcement.text) else { continue }
        count += 1
        let item = DeliveryItem(
          id: AnnouncementID(count), announcement: announcement, channels: used, showing: showing,
          whole: try? read.get().whole)
        // The sinks hear of it before any channel takes it, so its history entry exists
        // when its first outcome comes.
        for sink in sinks { sink.queued(item) }
        handing.withLock { $0.item = item.id }
        for channel in channels { channel.deliver(item) }
        let held = handing.withLock { handing in
          defer { handing = (nil, []) }
          return handing.held
        }
        for (news, from) in held { tell(news, from: from) }
      case .failure(let error):
        rejected += 1
        reject(line, because: error)
      }
    }
    for channel in channels { await channel.finish() }
    var result = summary.withLock { $0 }
    result.rejectedLines = rejected
    return result
  }

  func report(_ report: any ChannelReport) {
    for sink in sinks { sink.reported(report) }
    if let outcome = report.ending?.outcome, let failure = plan.failure(of: outcome) {
      summary.withLock { $0.count(failure) }
      if let line = report.notDeliveredLine { terminal.error(line) }
    }
    guard let news = report.news, channels.count > 1 else { return }
    let held = handing.withLock { handing in
      guard case .finished(_, let id, _) = news, id == handing.item else { return false }
      handing.held.append((news, report.channel))
      return true
    }
    if !held { tell(news, from: report.channel) }
  }

  /// Tells every channel but `from` of `news`.
  private func tell(_ news: PeerNews, from: Channel) {
    for channel in channels where channel.channel != from { channel.hear(news) }
  }

  /// `announcement`, or the rejection of the first channel that cannot deliver it.
  private func checked(
    _ announcement: Result<Announcement, LineError>
  ) async -> Result<Announcement, LineError> {
    guard case .success(let found) = announcement else { return announcement }
    for channel in channels {
      if let problem = await channel.check(found) { return .failure(problem) }
    }
    return announcement
  }

  private func reject(_ line: InputLines.Line, because reason: LineError) {
    let time = started.duration(to: clock.now)
    // The JSON event and the outcome log keep the English.
    for sink in sinks {
      sink.rejected(line: line.number, input: line.text, reason: reason.english, time: time)
    }
    terminal.error(
      localized(
        "Skipped input line {number}: {reason}.",
        ["number": String(line.number), "reason": reason.description]))
  }
}
