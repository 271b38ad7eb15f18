import Dispatch

/// The output module and language speech-dispatcher gives a new connection, which is
/// what an announcement that names neither is spoken with; for `announce doctor`.
///
/// They are read with SSIP's `GET OUTPUT_MODULE` and `GET LANGUAGE` on a connection of
/// announce's own, which speech-dispatcher 0.11.4 and 0.12 answer alike (`251-espeak-ng`,
/// `251-en`, then `251 OK GET RETURNED`).
package struct SpeechdVoiceDefaults: Sendable, Equatable {
  /// The output module, such as `espeak-ng`.
  package var outputModule: String
  /// The language, such as `en`.
  package var language: String

  /// Values as read; for tests.
  package init(outputModule: String, language: String) {
    self.outputModule = outputModule
    self.language = language
  }

  /// Asks the daemon at `address`; everything, connecting included, within `bound` of
  /// silence per reply, on a Dispatch thread, since the reads block.
  ///
  /// - Throws: ``SpeechdConnectError/unreachable(_:detail:)`` when nothing listens there
  ///   or it hangs up, and ``SpeechdConnectError/notAnswering(_:within:)`` when it says
  ///   nothing for `bound`: a stopped (SIGSTOP) or frozen daemon.
  package static func read(
    at address: SpeechdAddress, within bound: Duration = .seconds(2)
  ) async throws(SpeechdConnectError) -> SpeechdVoiceDefaults {
    let result: Result<SpeechdVoiceDefaults, SpeechdConnectError> = await withCheckedContinuation {
      continuation in
      DispatchQueue.global().async {
        continuation.resume(
          returning: Result { () throws(SpeechdConnectError) in
            let listing = try SSIPListing.open(address, silenceBound: bound)
            let module = SSIPListing.values(in: try listing.ask("GET OUTPUT_MODULE")).first
            let language = SSIPListing.values(in: try listing.ask("GET LANGUAGE")).first
            listing.quit()
            return SpeechdVoiceDefaults(
              outputModule: module ?? ConnectionSettings().outputModule, language: language ?? "")
          })
      }
    }
    return try result.get()
  }
}
