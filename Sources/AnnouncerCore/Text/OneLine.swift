/// A value a person gave, such as an address or a JSON key, written so that a sentence that
/// quotes it stays one line: a sentence is printed as one line for a screen reader, which
/// reads each line aloud, and `--json` and the outcome log keep it as one.
package enum OneLine {
  /// `text` with each control character, and Unicode's line and paragraph separators,
  /// written as JSON writes it (`\n`, `\r`, `\t`, `\u000b`, `\u2028`); with
  /// `quotesAndBackslashes`, `"` and `\` too, as in a JSON string.
  ///
  /// Only these are escaped: a path or a name is read as the person wrote it.
  package static func escaped(_ text: some StringProtocol, quotesAndBackslashes: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: { needsEscape($0, quotesAndBackslashes: quotesAndBackslashes) })
    else { return String(text) }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if needsEscape(scalar, quotesAndBackslashes: quotesAndBackslashes) {
        result.append(contentsOf: escape(of: scalar).unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// Whether `scalar` is written as an escape: a C0 or C1 control character, DEL, the line
  /// or paragraph separator (each of which a terminal or a screen reader may take as the
  /// end of a line), or a quote or backslash when asked.
  private static func needsEscape(_ scalar: Unicode.Scalar, quotesAndBackslashes: Bool) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
    case 0x22, 0x5C: quotesAndBackslashes
    default: false
    }
  }

  /// JSON's escape for `scalar`.
  private static func escape(of scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case "\u{08}": return "\\b"
    case "\u{0C}": return "\\f"
    case "\"": return "\\\""
    case "\\": return "\\\\"
    default:
      let hex = String(scalar.value, radix: 16)
      return "\\u" + String(repeating: "0", count: max(0, 4 - hex.utf8.count)) + hex
    }
  }
}
