import Testing

@testable import announce

/// Every message on standard error is one line, whatever the values in it hold.
@Suite struct TerminalLineTests {
  /// The fuzz target `address` found a sentence split in two by a line break in
  /// `SPEECHD_ADDRESS`; the writer of standard error says each break as a space.
  @Test func everyLineBreakInAnErrorIsSaidAsASpace() {
    let address = "unix_socket:a\nb\u{0B}c\rd\u{85}e\u{2028}f\u{2029}g\u{0C}h"
    let sentence = "announce could not reach speech-dispatcher at \(address); start it."
    #expect(
      Terminal.oneLine(sentence)
        == "announce could not reach speech-dispatcher at unix_socket:a b c d e f g h; start it.")
    #expect(!Terminal.oneLine(sentence).contains { $0.isNewline })
  }

  @Test func aLineWithoutBreaksIsWrittenAsItIs() {
    let line = "Bad input: the SSML must have <speak> as its root element, not <voice>; fix the SSML."
    #expect(Terminal.oneLine(line) == line)
  }
}
