import AnnouncerCore

/// How a run reaches the desktop's notification server: the session bus through sd-bus
/// in the command, a scripted server in the tests. Asked only when the plan uses
/// notifications, so that libsystemd is loaded only then.
protocol NotificationService: Sendable {
  /// A connection to the server, or why there is none, in one sentence.
  func server(environment: [String: String]) async -> Result<any NotificationServer, NotificationUnavailable>
}

/// The notifications of the command: the server on the session bus that
/// `DBUS_SESSION_BUS_ADDRESS` (or `$XDG_RUNTIME_DIR/bus`) names.
struct SessionBusNotifications: NotificationService {
  func server(environment: [String: String]) async -> Result<any NotificationServer, NotificationUnavailable>
  {
    await SdBusNotificationServer.connect(environment: environment).map { $0 }
  }
}
