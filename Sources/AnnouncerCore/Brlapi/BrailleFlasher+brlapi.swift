extension BrailleFlasher {
  /// Connects to brltty's BrlAPI and returns a flasher for it that takes turns on the
  /// display with the user's other announce processes.
  ///
  /// The turns are the speaking turns' mechanism (``SharedSpeakingTurns``) with a lock
  /// of their own, one per BrlAPI host, so that a process waiting to speak never waits
  /// for another one's braille, and the other way round.
  ///
  /// - Parameters:
  ///   - environment: where `BRLAPI_HOST`, `BRLAPI_AUTH` and `XDG_RUNTIME_DIR` are read.
  ///   - timing: the reading pace and the flash times.
  ///   - whenTurnsUnavailable: called once when turns cannot be taken; the flasher then
  ///     shows without them.
  /// - Returns: the flasher, or why braille is not available, in one sentence naming the BrlAPI host.
  package static func brltty(
    environment: [String: String], timing: BrailleTiming = BrailleTiming(),
    whenTurnsUnavailable: (TurnsUnavailable) -> Void = { _ in }
  ) async -> Result<BrailleFlasher, BrailleUnavailable> {
    let startedAt = SharedSpeakingTurns.wallClockNow()
    let display: BrlapiDisplay
    switch await BrlapiDisplay.connect(environment: environment, waitingAtMost: timing.answerBound) {
    case .success(let connected): display = connected
    case .failure(let error): return .failure(error)
    }
    var turns: any SpeakingTurns = AlwaysYourTurn()
    switch SharedSpeakingTurns.forUser(
      address: "braille " + display.address, environment: environment, since: startedAt)
    {
    case .success(let shared): turns = shared
    case .failure(let unavailable): whenTurnsUnavailable(unavailable)
    }
    return .success(BrailleFlasher(display: display, timing: timing, turns: turns))
  }
}
