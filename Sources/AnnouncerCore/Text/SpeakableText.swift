/// Makes any text safe to speak and to print.
package enum SpeakableText {
  /// Removes what XML 1.0 cannot carry and a speech synthesiser should not see:
  /// control characters (other than tab and line breaks), ANSI escape sequences,
  /// and non-characters.
  package static func cleaned(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    forEachKeptScalar(of: text) { scalar in
      scalars.append(scalar)
      return true
    }
    return String(scalars)
  }

  /// Whether anything but white space would be left of `text` once it is cleaned:
  /// a line of nothing but escape sequences says nothing. It stops at the first
  /// character that would be spoken, without building the cleaned text.
  package static func hasSpeech(_ text: String) -> Bool {
    var found = false
    forEachKeptScalar(of: text) { scalar in
      if !scalar.properties.isWhitespace { found = true }
      return !found
    }
    return found
  }

  /// Calls `body` with each scalar of `text` that ``cleaned(_:)`` keeps, in order,
  /// until `body` returns `false`.
  private static func forEachKeptScalar(
    of text: String, _ body: (Unicode.Scalar) -> Bool
  ) {
    var iterator = text.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      if scalar == "\u{1B}" {
        skipEscapeSequence(&iterator)
        continue
      }
      if isAllowedInXML(scalar) && !body(scalar) { return }
    }
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

extension StringProtocol {
  /// The text without white space and line breaks at either end (Unicode `White_Space`,
  /// which is what Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` removes).
  package var trimmingWhiteSpace: String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}

extension String {
  /// The text with every occurrence of `target` replaced by `replacement`, matched as
  /// UTF-8 bytes. Unlike a Character-wise match, this finds a quote followed by a
  /// combining mark, which matters when quoting for a shell.
  package func replacingBytes(of target: String, with replacement: String) -> String {
    let pattern = Array(target.utf8)
    guard !pattern.isEmpty, utf8.count >= pattern.count else { return self }
    let bytes = Array(utf8)
    let substitute = Array(replacement.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == pattern[0], bytes.count - index >= pattern.count,
        bytes[index..<index + pattern.count].elementsEqual(pattern)
      {
        result += substitute
        index += pattern.count
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}
