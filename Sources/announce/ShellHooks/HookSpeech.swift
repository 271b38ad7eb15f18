import ArgumentParser
import FoundationEssentials
import Glibc

/// How the hooks of `announce init` speak: as the background half of `--detach` does,
/// with the outcome in the ``OutcomeLog``, out of the terminal's session.
enum HookSpeech {
  /// The retry window of a hook's announcements when `ANNOUNCE_TIMEOUT` is not set: long
  /// enough to wait out a screen reader reading a command's output.
  static let defaultTimeout = "30"

  /// Speaks `sentence` after `soundIcon`, with the user's `ANNOUNCE_` variables.
  ///
  /// - Parameter hook: who speaks, at the start of a sentence, for the log line that
  ///   says why nothing was said, such as "The shell hook".
  static func speak(
    _ sentence: String, soundIcon: String? = nil, environment: [String: String], hook: String
  ) async throws {
    // Out of the terminal's session, so that neither Control-C nor closing the
    // terminal cuts the announcement off. It fails harmlessly when already a leader.
    setsid()
    var arguments = [Detach.childFlag]
    if let soundIcon { arguments += ["--sound-icon", soundIcon] }
    if (environment["ANNOUNCE_TIMEOUT"] ?? "").isEmpty {
      arguments += ["--timeout", defaultTimeout]
    }
    do {
      let speaker = try Announce.parse(arguments + ["--", sentence])
      try await speaker.run()
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
