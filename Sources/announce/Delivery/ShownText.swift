import AnnouncerCore

/// A text as a display or a list shows it: one line, and an SSML document as the words
/// it speaks. The braille display and `announce history` both show texts this way.
enum ShownText {
  /// `text` on one line, and an SSML document as the words it speaks.
  static func oneLine(_ text: String, ssml: Bool) -> String {
    var plain = text
    if ssml {
      var words = ""
      var inTag = false
      for character in text {
        if character == "<" {
          inTag = true
        } else if character == ">" {
          inTag = false
        } else if !inTag {
          words.append(character)
        }
      }
      plain =
        words.replacingBytes(of: "&lt;", with: "<").replacingBytes(of: "&gt;", with: ">")
        .replacingBytes(of: "&quot;", with: "\"").replacingBytes(of: "&apos;", with: "'")
        .replacingBytes(of: "&amp;", with: "&")
    }
    // One line each, and nothing a terminal would take for a command.
    let flat = plain.unicodeScalars.map { scalar -> String in
      scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
        ? " " : String(scalar)
    }
    return flat.joined().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
  }
}
