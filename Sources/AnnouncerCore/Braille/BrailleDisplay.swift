/// A connection to a braille display, as ``BrailleFlasher`` uses it: ``BrlapiDisplay``
/// for brltty, a scripted one in tests.
///
/// The flasher calls one method at a time, in order, and waits for each.
package protocol BrailleDisplay: Sendable {
  /// Where the display is, for messages to people, such as `BrlAPI at :0`.
  var address: String { get }
  /// Connects if there is no connection (again after one was lost), enters tty mode on
  /// the session's tty, and returns the display's width in cells.
  func enterTtyMode() async -> Result<Int, BrailleUnavailable>
  /// Sets our client priority, 0 to 100.
  func setPriority(_ priority: UInt32) async
  /// Shows `text`, padded with blanks to the display's width.
  func write(_ text: String) async
  /// Leaves tty mode: keys go to others again.
  func leaveTtyMode() async
  /// Closes the connection. Nothing is called after it.
  func close() async
  /// Keys pressed while in tty mode, and the loss of the connection.
  var inputs: AsyncStream<BrailleDisplayInput> { get }
}

/// What a braille display reports by itself.
package enum BrailleDisplayInput: Sendable, Equatable {
  /// A key was pressed.
  case key(BrailleKey)
  /// The connection broke, or brltty went away.
  case lost
}

/// Why no braille display could be used, as one sentence naming the cause and the fix.
package struct BrailleUnavailable: Error, Sendable, Equatable {
  /// Which kind of failure it is.
  package let failure: BrailleFailure
  /// One sentence for standard error, naming the BrlAPI host and the fix.
  package let message: String

  /// Creates the error.
  package init(_ failure: BrailleFailure, message: String) {
    self.failure = failure
    self.message = message
  }
}

extension BrailleUnavailable {
  /// brltty at `address` took a request and did not answer.
  static func notAnswering(_ address: String) -> BrailleUnavailable {
    BrailleUnavailable(
      .notAnswering,
      message:
        "Braille is not available because brltty at \(address) does not answer; check that it is running and not stopped, or set BRLAPI_HOST to another one."
    )
  }

  /// The connection to brltty at `address` broke while a message was shown.
  static func lost(_ address: String) -> BrailleUnavailable {
    BrailleUnavailable(
      .displayLost,
      message:
        "The braille display went away because brltty at \(address) stopped or closed the connection; check brltty's log and start it again."
    )
  }
}
