/// A text cut into windows that each fit on the display, for panning.
///
/// BrlAPI shows one Unicode scalar per cell (combining marks included), so a window is
/// counted in scalars. Line breaks, tabs and other control characters become spaces,
/// and runs of spaces one space: a braille display shows one line. A window ends at
/// the last space that fits, so words are not cut; only a word longer than the display
/// is cut, at the display's width. No word is left out: the windows, joined with
/// spaces, are the cleaned text.
package enum BrailleWindows {
  /// The windows of `text` on a display of `cells` cells; one empty window for an empty text.
  package static func split(_ text: String, cells: Int) -> [String] {
    precondition(cells > 0, "A braille display has at least one cell.")
    let words = cleaned(text).split(separator: " ", omittingEmptySubsequences: true)
    var windows: [String] = []
    var current: [Unicode.Scalar] = []
    for word in words {
      var rest = Array(word.unicodeScalars)
      // A word that fits after the current window's text and a space joins it.
      if !current.isEmpty, current.count + 1 + rest.count <= cells {
        current.append(" ")
        current += rest
        continue
      }
      if !current.isEmpty {
        windows.append(string(current))
        current = []
      }
      // A word longer than the display is cut into full windows.
      while rest.count > cells {
        windows.append(string(rest[..<cells]))
        rest.removeFirst(cells)
      }
      current = rest
    }
    if !current.isEmpty || windows.isEmpty { windows.append(string(current)) }
    return windows
  }

  /// `text` on one line: every whitespace or control character a space, runs of spaces one.
  static func cleaned(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    var lastWasSpace = true
    for scalar in text.unicodeScalars {
      let blank = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
      if blank {
        if !lastWasSpace { scalars.append(" ") }
        lastWasSpace = true
      } else {
        scalars.append(scalar)
        lastWasSpace = false
      }
    }
    if scalars.last == " " { scalars.removeLast() }
    return String(scalars)
  }

  private static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }
}
