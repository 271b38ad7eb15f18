/// What every fuzz target shares: how a property that does not hold stops the run.
///
/// A trap is what libFuzzer catches: it prints the message and the stack, keeps the input
/// as `crash-…`, and the run fails, as it does for a crash in the code under test.
func require(_ condition: Bool, _ property: @autoclosure () -> String) {
  if !condition { fatalError("property does not hold: \(property())") }
}

/// The fuzzer's input as bytes.
func inputBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
  Array(UnsafeBufferPointer(start: data, count: size))
}

/// The fuzzer's input as text, as announce reads a line: invalid UTF-8 becomes U+FFFD.
func inputText(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
  String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

/// Whether `text` is one line, as every sentence announce prints or logs must be.
func isOneLine(_ text: String) -> Bool {
  !text.unicodeScalars.contains {
    $0 == "\n" || $0 == "\r" || $0 == "\u{0B}" || $0 == "\u{0C}" || $0 == "\u{85}" || $0 == "\u{2028}"
      || $0 == "\u{2029}"
  }
}
