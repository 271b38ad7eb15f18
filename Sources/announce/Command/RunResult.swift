/// What one run of `announce` came to. ``ExitStatus/of(_:)`` turns it into the exit status.
enum RunResult: Sendable, Equatable {
  /// The output modules or voices were listed.
  case listed
  /// `--detach` started the delivery in the background.
  case detached
  /// `announce doctor` found that speech can be heard and nothing else is broken.
  case checked
  /// The input ended and every announcement has its outcome.
  case finished(RunSummary)
  /// A signal ended the run, after our speech was cancelled and every outcome reported.
  case interrupted(HandledSignal)
  /// The run could not start or go on; its sentence was said.
  case failed(RunFailure)
}
