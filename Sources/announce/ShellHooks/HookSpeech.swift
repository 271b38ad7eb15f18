import ArgumentParser
import FoundationEssentials
import Glibc

/// How the hooks of `announce init` speak: as the background half of `--detach` does,
/// with the outcome in the ``OutcomeLog``, out of the terminal's session.
enum HookSpeech {
  /// Speaks `sentence` after `soundIcon`, with the user's `ANNOUNCE_` variables in
  /// `environment` (see ``AnnounceRequest/hook(speaking:soundIcon:environment:)``).
  ///
  /// - Parameter hook: who speaks, at the start of a sentence, for the log line that
  ///   says why nothing was said, such as "The shell hook".
  static func speak(
    _ sentence: String, soundIcon: String? = nil, hook: String, environment: [String: String]
  ) async throws {
    // Out of the terminal's session, so that neither Control-C nor closing the
    // terminal cuts the announcement off. It fails harmlessly when already a leader.
    setsid()
    let result: RunResult
    do {
      let request = try SpokenLanguage(environment: environment).applied(
        to: AnnounceRequest.hook(speaking: sentence, soundIcon: soundIcon, environment: environment))
      result = await AnnounceRun(request).result()
    } catch {
      // An invalid ANNOUNCE_ variable: say so where the user can find it.
      let failure = RunFailure.usage(Announce.message(for: error))
      result = .failed(failure)
      // With the history off (or its switch unreadable) the sentence, which holds a
      // command line or a window name, is not written: only why nothing was said.
      let what = (try? HistorySwitch.isOn(environment: environment)) == true ? " \"\(sentence)\"" : ""
      OutcomeLog.forUser(environment: environment).record(
        error: "\(hook) could not announce\(what): \(failure.sentence)",
        status: ExitStatus.of(result))
    }
    let status = ExitStatus.of(result)
    if status != ExitStatus.success { throw ExitCode(status) }
  }
}
