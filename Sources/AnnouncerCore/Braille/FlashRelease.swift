/// What a flash held for the other channels of its announcement learns when they are all
/// done with it: whether to leave it out, end it at once, or let it run its time. It is
/// the flash's own word, so that the braille machine knows no other channel's outcomes.
package enum FlashRelease: Sendable, Equatable {
  /// They delivered it, or did not for a reason of the announcement's own (a timeout):
  /// the flash is shown for its time.
  case runItsTime
  /// Flood control left the announcement out, or it joined an equal one still waiting: a
  /// flash not yet shown is left out, since showing it flashed a whole flood, 5 s a line,
  /// long after the speech was over.
  case leaveOut
  /// Their service failed, or the run cancelled them: the flash ends at once.
  case endNow
}
