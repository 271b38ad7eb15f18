/// Makes any text safe to speak and to print.
public enum SpeakableText {
  /// Removes what XML 1.0 cannot carry and a speech synthesiser should not see:
  /// control characters (other than tab and line breaks), ANSI escape sequences,
  /// and non-characters.
  public static func cleaned(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    var iterator = text.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      if scalar == "\u{1B}" {
        skipEscapeSequence(&iterator)
        continue
      }
      if isAllowedInXML(scalar) { scalars.append(scalar) }
    }
    return String(scalars)
  }

  private static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9, 0xA, 0xD: true
    case 0x0..<0x20, 0x7F..<0xA0: false
    case 0xFFFE, 0xFFFF: false
    default: true
    }
  }

  /// Skips the rest of an ANSI escape sequence (CSI `ESC [ … final`, OSC `ESC ] … BEL`, or one character).
  private static func skipEscapeSequence(_ iterator: inout String.UnicodeScalarView.Iterator) {
    guard let introducer = iterator.next() else { return }
    switch introducer {
    case "[":
      while let scalar = iterator.next(), !(0x40...0x7E).contains(scalar.value) {}
    case "]":
      while let scalar = iterator.next(), scalar != "\u{7}" {
        if scalar == "\u{1B}" {
          _ = iterator.next()
          return
        }
      }
    default:
      return
    }
  }
}
