import AnnouncerCore
import Synchronization

/// Desktop notifications, as one channel of a run: each item the delivery loop hands
/// over becomes a notification on the session bus's server, and what becomes of it (seen,
/// shown, expired, …) is reported as a ``NotificationReport`` the moment it is known.
///
/// It waits for no other channel, and no other channel waits for its outcome beyond the
/// announcement's own wait: its summary is the item's shown text, its urgency follows the
/// priority (`important` is critical), and with speech on it asks the server not to play
/// a sound of its own.
final class NotificationChannel: DeliveryChannel {
  let channel = Channel.notification
  let showsText = true
  /// Shows the notifications.
  let notifier: Notifier
  private let terminal: Terminal
  private let events: AsyncStream<NotificationEvent>
  private let book = TextBook()
  private let reporting = Mutex<Task<Void, Never>?>(nil)
  private let withSpeech: Bool
  private let body: String
  private let address: String

  /// The text of each notification not yet ended, by item, shared with the task that
  /// reports the notifier's events.
  private final class TextBook: Sendable {
    let texts = Mutex<[Int: String]>([:])
  }

  /// The icon: a name every freedesktop icon theme has.
  static let icon = "dialog-information"

  /// - Parameters:
  ///   - notifier: the notifier on the server.
  ///   - address: the session bus's address, for the line that says the server left.
  ///   - terminal: where a server that left is said, once.
  ///   - withSpeech: whether speech says the announcements too: the server is asked to
  ///     play no sound of its own (`suppress-sound`).
  ///   - body: the notifications' body, such as where a hook's announcement came from;
  ///     empty for none.
  init(notifier: Notifier, address: String, terminal: Terminal, withSpeech: Bool, body: String = "") {
    self.notifier = notifier
    self.address = address
    self.terminal = terminal
    self.withSpeech = withSpeech
    self.body = body
    events = notifier.events()
  }

  func start(reporting reports: any ChannelReporting) {
    let events = self.events
    let book = self.book
    let terminal = self.terminal
    let address = self.address
    let reporter = Task {
      var actions: [Int: String] = [:]
      var said = false
      for await event in events {
        switch event.kind {
        case .actionInvoked(let key):
          actions[event.item] = key
        case .finished(let outcome):
          let text = book.texts.withLock { $0.removeValue(forKey: event.item) } ?? ""
          reports.report(
            NotificationReport(
              id: AnnouncementID(event.item), text: text, outcome: outcome,
              action: actions.removeValue(forKey: event.item), time: event.time))
          // One line for the run: the rest of the notifications meet the same missing server.
          if outcome == .noServer, !said {
            said = true
            terminal.error(
              NotificationUnavailable.noServer(address: address, reason: "it left the bus").printedMessage)
          }
        }
      }
    }
    reporting.withLock { $0 = reporter }
  }

  func deliver(_ item: DeliveryItem) {
    book.texts.withLock { $0[item.id.rawValue] = item.shown }
    notifier.show(request(for: item), as: item.id.rawValue, wait: item.spoken.retryTimeout)
  }

  /// The notification of `item`.
  func request(for item: DeliveryItem) -> NotificationRequest {
    NotificationRequest(
      summary: item.shown, body: body, icon: Self.icon,
      urgency: item.spoken.priority == .important ? .critical : .normal, suppressSound: withSpeech)
  }

  /// `text` as a server that reads markup in the body shows it as written.
  static func escapingMarkup(_ text: String) -> String {
    text.replacingBytes(of: "&", with: "&amp;").replacingBytes(of: "<", with: "&lt;")
      .replacingBytes(of: ">", with: "&gt;")
  }

  /// Waits until every notification has its outcome, then closes the connection.
  func finish() async {
    await notifier.drain()
    await close()
  }

  /// Closes every notification still waited for, then the connection: for a signal.
  func stop() async {
    await notifier.stopAll()
    await close()
  }

  private func close() async {
    await notifier.close()
    let reporter = reporting.withLock { $0 }
    await reporter?.value
  }
}
