import AnnouncerCore

extension NotificationUnavailable {
  /// ``message`` in the language of the locale: one sentence naming the cause and the
  /// fix. The core knows no gettext, so its sentences are worded here, each the core's
  /// English word for word.
  var printedMessage: String {
    switch self {
    case .libraryMissing(let fileName):
      localized(
        "Desktop notifications are not available because {file} is not installed; install the libsystemd0 package.",
        ["file": fileName])
    case .noSessionBus:
      localized(
        "Desktop notifications are not available because this session has no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set); run announce inside your desktop session."
      )
    case .busUnreachable(let address, let reason):
      localized(
        "Desktop notifications are not available because the session bus at {address} cannot be reached ({reason}); check DBUS_SESSION_BUS_ADDRESS.",
        ["address": address, "reason": reason])
    case .noServer(let address, let reason):
      localized(
        "Desktop notifications are not available because no notification server runs on the session bus at {address} ({reason}); start one, such as dunst, or your desktop's.",
        ["address": address, "reason": reason])
    case .noThread:
      localized("Desktop notifications are not available because no thread could be started for them.")
    }
  }
}
