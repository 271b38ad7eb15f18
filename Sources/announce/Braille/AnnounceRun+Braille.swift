import AnnouncerCore

extension AnnounceRun {
  /// Opens the braille display the request asks for: `nil` when braille is off (and
  /// libbrlapi is never loaded). With `--braille`, a display that cannot be reached is
  /// said in one line and the speech goes ahead without it.
  ///
  /// - Throws: with `--braille-only`, the service-unavailable failure naming the BrlAPI
  ///   host, after recording the TEXTs as missed, so that `replay` can show them later:
  ///   a hook's or a tmux alert's text was gone for good.
  func openBraille() async throws(RunFailure) -> BrailleFlasher? {
    guard request.plan.uses(.braille) else { return nil }
    switch await brailleService.flasher(
      timing: request.braille.timing, environment: request.connection.environment)
    {
    case .success(let flasher): return flasher
    case .failure(let unavailable):
      if request.plan.requires(.braille) {
        recordNotShown(because: .unavailable)
        throw .serviceUnavailable(unavailable.printedMessage)
      }
      terminal.error(unavailable.printedMessage)
      return nil
    }
  }
}
