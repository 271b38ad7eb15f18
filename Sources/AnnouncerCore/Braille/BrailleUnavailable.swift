/// Why no braille display could be used: a kind the command words in the user's
/// language, and ``message``, the same in English.
///
/// `address` is where the display is, such as `BrlAPI host :0`.
package enum BrailleUnavailable: Error, Sendable, Equatable {
  /// libbrlapi, the file named, is not installed.
  case libraryMissing(fileName: String)
  /// No thread could be started to talk to brltty.
  case noThread
  /// There was no memory for a connection.
  case noMemory(address: String)
  /// brltty cannot be reached at the address; `reason` is libbrlapi's.
  case unreachable(address: String, reason: String)
  /// The connection was lost before the display was taken.
  case connectionLost(address: String)
  /// brltty could not attach to this session's terminal; `reason` is libbrlapi's.
  case cannotAttach(address: String, reason: String)
  /// brltty runs with no braille display.
  case noDisplay(address: String)
  /// brltty took a request and did not answer.
  case notAnswering(address: String)
  /// The connection broke while a message was shown.
  case lost(address: String)

  /// Which kind of failure it is, as the log names it.
  package var failure: BrailleFailure {
    switch self {
    case .notAnswering: .notAnswering
    case .lost: .displayLost
    default: .unavailable
    }
  }

  /// One sentence in English naming the BrlAPI host and the fix.
  package var message: String {
    switch self {
    case .libraryMissing(let fileName):
      "Braille is not available because \(fileName) is not installed; install the libbrlapi0.8 and brltty packages."
    case .noThread:
      "Braille is not available because no thread could be started for it."
    case .notAnswering(let address):
      "Braille is not available because brltty at \(address) does not answer; check that it is running and not stopped, or set BRLAPI_HOST to another one."
    case .lost(let address):
      "The braille display went away because brltty at \(address) stopped or closed the connection; check brltty's log and start it again."
    case .noMemory(let address):
      Self.notAvailable(at: address, because: "there is no memory for a connection")
    case .unreachable(let address, let reason):
      Self.notAvailable(at: address, because: "brltty cannot be reached there (\(reason))")
    case .connectionLost(let address):
      Self.notAvailable(at: address, because: "the connection was lost")
    case .cannotAttach(let address, let reason):
      Self.notAvailable(at: address, because: "it could not attach to this session's terminal (\(reason))")
    case .noDisplay(let address):
      Self.notAvailable(at: address, because: "brltty has no braille display")
    }
  }

  private static func notAvailable(at address: String, because reason: String) -> String {
    "Braille is not available at \(address) because \(reason); start brltty with a braille display, or set BRLAPI_HOST to where one listens."
  }
}
