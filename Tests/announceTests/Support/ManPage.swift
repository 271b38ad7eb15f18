import Foundation

/// The manual page, `man/announce.1`, read as the tests need it: its sections, its list
/// items, and their words as a reader hears them.
struct ManPage {
  /// The page's source, one mdoc line per element.
  let lines: [String]

  init() throws {
    lines = try PackageFile.text("man/announce.1").components(separatedBy: "\n")
  }

  /// The lines of the section `.Sh name`, up to the next `.Sh`; empty when there is none.
  func section(_ name: String) -> [String] {
    lines(after: ".Sh \(name)", until: [".Sh "])
  }

  /// The lines of the subsection `.Ss name`, up to the next `.Ss` or `.Sh`.
  func subsection(_ name: String) -> [String] {
    lines(after: ".Ss \(name)", until: [".Ss ", ".Sh "])
  }

  private func lines(after heading: String, until ends: [String]) -> [String] {
    guard let start = lines.firstIndex(of: heading) else { return [] }
    let rest = lines[(start + 1)...]
    let end = rest.firstIndex { line in ends.contains { line.hasPrefix($0) } } ?? rest.endIndex
    return Array(rest[..<end])
  }

  /// The items of the outermost lists in `lines`: each `.It` line with the lines that
  /// follow it up to the next item or the end of its list; nested lists stay in their item.
  static func items(in lines: [String]) -> [(head: String, body: [String])] {
    var items: [(head: String, body: [String])] = []
    var depth = 0
    for line in lines {
      if line.hasPrefix(".Bl ") {
        depth += 1
        if depth == 1 { continue }
      } else if line.hasPrefix(".El") {
        depth -= 1
        if depth == 0 { continue }
      }
      if depth == 1 && line.hasPrefix(".It ") {
        items.append((line, []))
      } else if depth >= 1, !items.isEmpty {
        items[items.count - 1].body.append(line)
      }
    }
    return items
  }

  /// The options an `.It` line names, as typed: `.It Fl t , Fl \-timeout Ar seconds`
  /// names `-t` and `--timeout`.
  static func optionNames(inItem head: String) -> [String] {
    let words = head.split(separator: " ").map(String.init)
    return words.indices.compactMap { index in
      guard words[index] == "Fl", index + 1 < words.count else { return nil }
      return "-" + words[index + 1].replacingOccurrences(of: "\\-", with: "-")
    }
  }

  /// The words of mdoc `lines` as a reader sees them, on one line: the macros left out,
  /// `Fl x` written `-x`, and punctuation put back against the word before it.
  static func plainText(_ lines: [String]) -> String {
    let macros: Set<String> = [
      "Ar", "Cm", "Ev", "Pa", "Ql", "Sx", "Op", "Oo", "Oc", "Ns", "No", "Po", "Pc", "Pq",
      "Dq", "Em", "Sy", "Xr", "Li", "Va", "Ic", "Fn", "Xo", "Xc", "It", "Pp", "Bd", "Ed", "Bl", "El",
      "Dl", "Sq", "Qq", "Aq", "Brq", "Bq", "Eo", "Ec",
    ]
    var words: [String] = []
    for line in lines {
      guard line.hasPrefix(".") else {
        words.append(line)
        continue
      }
      if line.hasPrefix(".\\\"") { continue }
      let tokens = line.dropFirst().split(separator: " ").map(String.init)
      var index = 0
      while index < tokens.count {
        let token = tokens[index]
        if token == "Fl" {
          let next = index + 1 < tokens.count ? tokens[index + 1] : ""
          words.append("-" + next)
          index += 2
          continue
        }
        if token == "Nm" {
          words.append("announce")
        } else if !macros.contains(token) {
          words.append(token)
        }
        index += 1
      }
    }
    var text = words.joined(separator: " ").replacingOccurrences(of: "\\-", with: "-")
      .replacingOccurrences(of: "\\e", with: "\\")
    for mark in [",", ".", ";", ":", ")"] {
      text = text.replacingOccurrences(of: " \(mark)", with: mark)
    }
    text = text.replacingOccurrences(of: "( ", with: "(")
    return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
