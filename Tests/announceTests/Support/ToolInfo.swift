import Foundation

/// What the built `announce` binary says about one of its commands through
/// ArgumentParser's `--experimental-dump-help` (its `ToolInfo`), so that tests follow the
/// code rather than a copied list of options.
struct ToolInfo: Decodable {
  struct Command: Decodable {
    var commandName: String
    var arguments: [Argument]?
  }

  struct Argument: Decodable {
    struct Name: Decodable {
      var kind: String
      var name: String
    }

    var kind: String
    var names: [Name]?
    var shouldDisplay: Bool
    var abstract: String?
    var defaultValue: String?
    var allValues: [String]?
    var valueName: String?

    /// The names as typed: `-t`, `--timeout`.
    var typedNames: [String] {
      (names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name }
    }

    /// The range the help gives, as in "(0 to 86400; default: 3)": `("0", "86400")`.
    var range: (low: String, high: String)? {
      guard let abstract, let match = abstract.firstMatch(of: /\((-?[0-9.]+) to (-?[0-9.]+)/) else {
        return nil
      }
      return (String(match.1), String(match.2))
    }

    /// The default the help gives, as in "default: 3, or ANNOUNCE_TIMEOUT)": the value
    /// (`3`) and the environment variable (`ANNOUNCE_TIMEOUT`), each when given.
    var helpDefault: (value: String?, variable: String?)? {
      guard let abstract, let match = abstract.firstMatch(of: /default: ([^)]*)\)/) else { return nil }
      var value: String?
      var variable: String?
      for part in match.1.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
        let word = part.hasPrefix("or ") ? String(part.dropFirst(3)) : part
        if word.wholeMatch(of: /[A-Z][A-Z0-9_]+/) != nil { variable = word } else { value = word }
      }
      return (value, variable)
    }
  }

  var command: Command

  /// The built binary, next to the test bundle.
  static let binary: URL = {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return executable.deletingLastPathComponent().appendingPathComponent("announce")
  }()

  /// The commands `Main` chooses by their first words, as typed before the options.
  static let commands: [[String]] = [
    [], ["history"], ["replay"], ["hook-finished"], ["tmux-alert"], ["init"], ["init", "ssh"], ["doctor"],
  ]

  /// The dump of the command chosen by `words`.
  static func of(_ words: [String]) throws -> ToolInfo {
    let process = Process()
    process.executableURL = binary
    process.arguments = words + ["--experimental-dump-help"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONDecoder().decode(ToolInfo.self, from: data)
  }
}
