/// A connection to a desktop notification server on the session bus, as the
/// notification channel uses it: ``SdBusNotificationServer`` for a real one, a scripted
/// one in tests.
///
/// Everything the server says comes through ``inputs``, in the order the server said it:
/// the id of a posted notification always comes before the signals about it, so a
/// notification closed at once is never lost (NOTIFY-NOTES.md: a quick close arrives
/// right after the reply to `Notify`).
package protocol NotificationServer: Sendable {
  /// Where the server is, for messages to people, such as `unix:path=/run/user/1000/bus`.
  var address: String { get }
  /// Asks the server to show `notification`; the answer comes as
  /// ``NotificationServerInput/posted(_:id:)`` or ``NotificationServerInput/refused(_:reason:)``
  /// carrying `token`.
  func post(_ notification: NotificationRequest, token: UInt64)
  /// Asks the server to close the notification with this id (`CloseNotification`).
  func close(_ id: UInt32)
  /// The server's name, vendor, version and capabilities; `nil` when it does not answer.
  func information() async -> NotificationServerInformation?
  /// Closes the connection. Nothing is called after it, and ``inputs`` ends.
  func shutdown() async
  /// The server's answers and signals, and the loss of the server.
  var inputs: AsyncStream<NotificationServerInput> { get }
}

/// One notification as announce asks for it (freedesktop Desktop Notifications 1.2,
/// `Notify`).
package struct NotificationRequest: Sendable, Equatable {
  /// The one line a server shows in bold: the announcement's words, plain text.
  package var summary: String
  /// More about it, such as where it came from; plain text, escaped for servers that
  /// read markup.
  package var body: String
  /// A standard icon theme name, such as `dialog-information`.
  package var icon: String
  /// How urgent it is; servers usually keep a critical one until the user closes it.
  package var urgency: NotificationUrgency
  /// Asks the server not to play its own sound: speech already says it.
  package var suppressSound: Bool
  /// The id of an earlier notification of ours to replace in place, or 0.
  package var replaces: UInt32
  /// How long the server shows it: `nil` lets the server choose.
  package var expiry: Duration?
  /// The action keys and labels, in pairs; `default` is a click on the notification.
  package var actions: [(key: String, label: String)]

  package init(
    summary: String, body: String = "", icon: String = "dialog-information",
    urgency: NotificationUrgency = .normal,
    suppressSound: Bool = false, replaces: UInt32 = 0, expiry: Duration? = nil,
    actions: [(key: String, label: String)] = [("default", "Seen")]
  ) {
    self.summary = summary
    self.body = body
    self.icon = icon
    self.urgency = urgency
    self.suppressSound = suppressSound
    self.replaces = replaces
    self.expiry = expiry
    self.actions = actions
  }

  package static func == (left: Self, right: Self) -> Bool {
    left.summary == right.summary && left.body == right.body && left.icon == right.icon
      && left.urgency == right.urgency
      && left.suppressSound == right.suppressSound && left.replaces == right.replaces
      && left.expiry == right.expiry
      && left.actions.map { "\($0.key)\u{0}\($0.label)" } == right.actions.map { "\($0.key)\u{0}\($0.label)" }
  }
}

/// The `urgency` hint: 0 low, 1 normal, 2 critical.
package enum NotificationUrgency: UInt8, Sendable {
  case low = 0
  case normal = 1
  case critical = 2
}

/// Why the server closed a notification (`NotificationClosed`'s reason).
package enum NotificationCloseReason: Sendable, Equatable {
  /// It timed out on screen (1).
  case expired
  /// The user dismissed it (2).
  case dismissed
  /// A `CloseNotification` call closed it, ours or another client's (3).
  case closedByCall
  /// The server gave no reason (4), or one the specification does not name.
  case undefined

  package init(code: UInt32) {
    switch code {
    case 1: self = .expired
    case 2: self = .dismissed
    case 3: self = .closedByCall
    default: self = .undefined
    }
  }
}

/// What a notification server says by itself, or in answer to a post.
package enum NotificationServerInput: Sendable, Equatable {
  /// The server took the notification posted with `token`, and gave it `id`.
  case posted(_ token: UInt64, id: UInt32)
  /// The server, or the bus, refused the notification posted with `token`.
  case refused(_ token: UInt64, reason: String)
  /// The notification with `id` was closed.
  case closed(id: UInt32, reason: NotificationCloseReason)
  /// The user invoked an action of the notification with `id`.
  case actionInvoked(id: UInt32, key: String)
  /// The server left the bus, or the bus connection broke.
  case lost
}

/// What `GetServerInformation` and `GetCapabilities` answer, for `announce doctor`.
package struct NotificationServerInformation: Sendable, Equatable {
  package var name: String
  package var vendor: String
  package var version: String
  package var specificationVersion: String
  package var capabilities: [String]

  package init(
    name: String, vendor: String, version: String, specificationVersion: String, capabilities: [String]
  ) {
    self.name = name
    self.vendor = vendor
    self.version = version
    self.specificationVersion = specificationVersion
    self.capabilities = capabilities
  }
}

/// Why no notification server could be used.
package enum NotificationUnavailable: Error, Sendable, Equatable {
  /// libsystemd, the file named, is not installed.
  case libraryMissing(fileName: String)
  /// Neither `DBUS_SESSION_BUS_ADDRESS` nor `$XDG_RUNTIME_DIR/bus` names a session bus,
  /// as in most SSH sessions.
  case noSessionBus
  /// The session bus at `address` cannot be reached; `reason` is the system's.
  case busUnreachable(address: String, reason: String)
  /// Nothing on the session bus at `address` answers as a notification server.
  case noServer(address: String, reason: String)
  /// No thread could be started to talk to the bus.
  case noThread

  /// One sentence in English naming the cause and the fix.
  package var message: String {
    switch self {
    case .libraryMissing(let fileName):
      "Desktop notifications are not available because \(fileName) is not installed; install the libsystemd0 package."
    case .noSessionBus:
      "Desktop notifications are not available because this session has no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set); run announce inside your desktop session."
    case .busUnreachable(let address, let reason):
      "Desktop notifications are not available because the session bus at \(address) cannot be reached (\(reason)); check DBUS_SESSION_BUS_ADDRESS."
    case .noServer(let address, let reason):
      "Desktop notifications are not available because no notification server runs on the session bus at \(address) (\(reason)); start one, such as dunst, or your desktop's."
    case .noThread:
      "Desktop notifications are not available because no thread could be started for them."
    }
  }
}
