import AnnouncerCore
import ArgumentParser
import Glibc

/// Parses and runs a command so that every usage error is one line on standard error.
///
/// Many users hear standard error through a screen reader, which reads every line;
/// ArgumentParser's own report is three or four ("Error:", "Help:", "Usage:", "See …").
/// Help, version and completion requests still print as ArgumentParser prints them.
enum OneLineErrors {
  /// Parses `arguments` as `Command`, runs it, and returns its exit status; a command
  /// that delivers runs with `signals`, the process's.
  static func status<Command: ParsableCommand>(
    of command: Command.Type, _ arguments: [String], signals: ProcessSignals = .unarmed
  ) async -> Int32 {
    do {
      var parsed = try Command.parseAsRoot(arguments)
      if let delivering = parsed as? any DeliveringCommand {
        return try await delivering.run(signals: signals)
      } else if var asynchronous = parsed as? any AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try parsed.run()
      }
      return ExitStatus.success
    } catch {
      return report(Command.self, error, arguments)
    }
  }

  /// Reports `error` and returns its exit status: help and version print as ArgumentParser
  /// prints them, an ``ExitCode`` from `run` (`announce history`'s, which is not a
  /// ``DeliveringCommand``) is quiet, its sentence said already, and anything else is one
  /// line on standard error.
  private static func report<Command: ParsableCommand>(
    _ command: Command.Type, _ error: any Error, _ arguments: [String]
  ) -> Int32 {
    if let code = error as? ExitCode { return code.rawValue }
    let code = Command.exitCode(for: error)
    // Through Terminal, which gives up quietly on an output that cannot be written
    // (FileHandle traps on EPIPE, ENOSPC and EBADF).
    if code == .success {
      let message = Command.fullMessage(for: error)
      if !message.isEmpty { Terminal(quiet: false).standardOutput(message) }
    } else {
      Terminal(quiet: false).error(
        sentence(
          Command.message(for: error), commandName: Command.configuration.commandName ?? "announce",
          arguments: arguments))
    }
    return code.rawValue
  }

  /// `message` as one line: `announce: <what is wrong> (see announce --help).`
  ///
  /// ArgumentParser lists the valid values of an option one per line, each after a dash;
  /// they become `a, b or c`, because a screen reader would read every dash aloud. Its own
  /// sentences are said in the locale's language where ``ParserWording`` knows them.
  ///
  /// `arguments` are the user's: a value quoted whole, with its line breaks said as
  /// spaces, so that a value with a line break does not split the sentence in two.
  static func sentence(
    _ message: String, commandName: String, arguments: [String] = [], in wording: Wording = .printed
  ) -> String {
    var message = message
    var values: [String] = []
    for argument in arguments {
      let value = argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) }
      for given in [argument] + (value.map { [$0] } ?? []) {
        let flat = String(given.map { $0.isNewline ? " " : $0 })
        if flat != given { message = message.replacingBytes(of: given, with: flat) }
        values.append(flat)
      }
    }
    var parts: [String] = []
    var items: [String] = []
    func endList() {
      guard let last = items.popLast() else { return }
      parts.append(ListWords.either(items + [last], printed: true, in: wording))
      items = []
    }
    for line in message.split(whereSeparator: \.isNewline).map({ $0.trimmingWhiteSpace }) {
      if line.hasPrefix("- ") {
        items.append(String(line.dropFirst(2)))
        continue
      }
      endList()
      guard !line.isEmpty, !line.hasPrefix("Usage:"), !line.hasPrefix("See '") else { continue }
      if line.hasPrefix("Error: ") {
        parts.append(ParserWording.translated(String(line.dropFirst(7)), values: values, in: wording))
      } else if line.hasPrefix("Help: ") {
        parts.append(String(line.dropFirst(6)))
      } else {
        parts.append(ParserWording.translated(String(line), values: values, in: wording))
      }
    }
    endList()
    var text = parts.joined(separator: " ")
    while let last = text.last, last == "." || last == " " { text.removeLast() }
    if text.isEmpty { text = wording.localized("the arguments could not be understood") }
    // TRANSLATORS: a usage error; {problem} may be in English when it is swift-argument-parser's own.
    return wording.localized(
      "{command}: {problem} (see {usage} --help).",
      [
        "command": String(commandName.split(separator: " ").first ?? "announce"), "problem": text,
        "usage": commandName,
      ])
  }
}
