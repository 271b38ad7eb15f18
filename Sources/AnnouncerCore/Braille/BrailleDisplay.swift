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
