import FoundationEssentials
import Glibc

/// How the hooks of `announce init` speak: as the background half of `--detach` does,
/// with the outcome in the ``OutcomeLog``, out of the terminal's session.
enum HookSpeech {
  /// Speaks `sentence` after `soundIcon`, with the user's `ANNOUNCE_` variables in
  /// `environment` (see ``AnnounceRequest/hook(speaking:soundIcon:environment:)``), and
  /// returns the exit status.
  ///
  /// A failure that ends the run goes into the log, which is where the user can find it,
  /// naming the sentence that was lost: "The shell hook could not announce "make
  /// finished after 2 minutes": …".
  ///
  /// - Parameter hook: who speaks, at the start of a sentence, for the log line that
  ///   says why nothing was said, such as "The shell hook".
  /// - Parameter origin: where the sentence came from, such as the command line and its
  ///   folder: the body of its desktop notification, when those are on.
  static func speak(
    _ sentence: String, soundIcon: String? = nil, hook: String, environment: [String: String],
    origin: String = "", signals: ProcessSignals
  ) async -> Int32 {
    // Out of the terminal's session, so that neither Control-C nor closing the
    // terminal cuts the announcement off. It fails harmlessly when already a leader.
    setsid()
    let result: RunResult
    let preamble = failurePreamble(hook: hook, sentence: sentence, environment: environment)
    do {
      var request = try SpokenLanguage(environment: environment).applied(
        to: AnnounceRequest.hook(
          speaking: sentence, soundIcon: soundIcon, environment: environment, origin: origin))
      request.outcomes.failurePreamble = preamble
      result = await AnnounceRun(request, signals: signals).result()
    } catch {
      // An invalid ANNOUNCE_ variable: say so where the user can find it, unless the log
      // has no place (a relative HOME), where it would be written wherever the hook runs.
      let failure = RunFailure(readingSettings: error)
      result = .failed(failure)
      if OutcomeLog.placeProblem(environment: environment) == nil {
        OutcomeLog.forUser(environment: environment).record(
          error: preamble + EnglishOriginals.english(of: failure.sentence), status: ExitStatus.of(result))
      }
    }
    return ExitStatus.of(result)
  }

  /// The words before a failure's sentence in the log, naming `sentence`, which the
  /// failure lost. With the history turned off (`ANNOUNCE_HISTORY=off`) the sentence,
  /// which holds a command line or a window name, is not written: only why nothing was
  /// said. Any other value, an invalid one included, leaves it in: nothing asked to
  /// keep it out, and the line is the only trace of what was lost.
  static func failurePreamble(hook: String, sentence: String, environment: [String: String]) -> String {
    let off = environment[HistorySwitch.variable]?.lowercased() == "off"
    return off ? "\(hook) could not announce: " : "\(hook) could not announce \"\(sentence)\": "
  }
}
