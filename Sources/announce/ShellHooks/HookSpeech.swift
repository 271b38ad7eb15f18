import ArgumentParser
import FoundationEssentials
import Glibc

/// How the hooks of `announce init` speak: as the background half of `--detach` does,
/// with the outcome in the ``OutcomeLog``, out of the terminal's session.
enum HookSpeech {
  /// The retry window of a hook's announcements, in seconds, when `ANNOUNCE_TIMEOUT` is
  /// not set: the hook is in no hurry, and a screen reader may be reading a command's
  /// output.
  static let defaultTimeout = 30.0

  /// Speaks `sentence` after `soundIcon`, with the user's `ANNOUNCE_` variables.
  ///
  /// - Parameter hook: who speaks, at the start of a sentence, for the log line that
  ///   says why nothing was said, such as "The shell hook".
  static func speak(_ sentence: String, soundIcon: String? = nil, hook: String) async throws {
    // Out of the terminal's session, so that neither Control-C nor closing the
    // terminal cuts the announcement off. It fails harmlessly when already a leader.
    setsid()
    do {
      try await Announce.speaking(sentence, soundIcon: soundIcon).run()
    } catch let error as ExitCode {
      throw error
    } catch {
      // An invalid ANNOUNCE_ variable: say so where the user can find it.
      let status = Announce.exitCode(for: error).rawValue
      OutcomeLog.forUser().record(
        error: "\(hook) could not announce \"\(sentence)\": \(Announce.message(for: error))",
        status: status)
      throw ExitCode(status)
    }
  }
}

extension Announce {
  /// The command that speaks `sentence` for a hook, as the background half of `--detach`
  /// does: every setting comes from the environment, as for a command line without
  /// options, except the sound icon and the hooks' own default timeout.
  ///
  /// The values are set on the command, not written into arguments to be parsed again,
  /// and checked by the same ``validate()`` as a command line's.
  static func speaking(_ sentence: String, soundIcon: String?) throws -> Announce {
    var command = try parse([])
    command.texts = [sentence]
    command.detach.isChild = true
    command.announcerOptions.soundIcon = soundIcon ?? command.announcerOptions.soundIcon
    command.announcerOptions.timeout = command.announcerOptions.timeout ?? HookSpeech.defaultTimeout
    try command.validate()
    return command
  }
}
