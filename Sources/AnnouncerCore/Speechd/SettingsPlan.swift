/// Which `SET`s go before each message, so that it is spoken with exactly its own settings.
///
/// Plain data with no connection of its own: ``SpeechdClient`` follows it on libspeechd,
/// and the tests' scripted backend on its model of the daemon, so the settings tests test
/// the very plan the client sends.
package struct SettingsPlan: Sendable, Equatable {
  /// What the connection holds, as far as the plan knows.
  package private(set) var held = HeldSettings.asOpened
  /// What the connection held when it was opened; `nil` until it was first needed.
  package private(set) var defaults: ConnectionSettings?

  /// The plan for a connection just opened, which holds the daemon's defaults.
  package init() {}

  /// What the connection held when it was opened. `read` asks the daemon, and is called
  /// only the first time: it must run before anything is set on the connection.
  package mutating func defaults(reading read: () -> ConnectionSettings) -> ConnectionSettings {
    if let defaults { return defaults }
    let read = read()
    defaults = read
    return read
  }

  /// The `SET`s to send, in order, before a message that asks for `voice`; `read` asks the
  /// daemon for the connection's defaults when the plan needs them and has none yet.
  ///
  /// The plan then counts the connection as holding the message's settings; when the daemon
  /// refuses one of the changes, tell it with ``refused()``.
  package mutating func changes(
    for voice: VoiceOptions, readingDefaults read: () -> ConnectionSettings
  ) -> [SettingChange] {
    guard held.needsDefaults(for: voice) else { return [] }
    let defaults = defaults(reading: read)
    let target = defaults.resolving(voice)
    let changes = target.changes(from: held.settings(defaults: defaults))
    held = .known(target)
    return changes
  }

  /// The daemon refused a change: what the connection holds is no longer known, so the
  /// next message sends every setting again.
  package mutating func refused() { held = .unknown }
}
