@testable import announce

/// The shell hook's sentence from `ANNOUNCE_FORMAT_OK` and `ANNOUNCE_FORMAT_FAIL`
/// (``HookSettings`` and ``HookMessage``), and the command line the shell reports.
///
/// The input's first 8 bytes are the milliseconds the command ran (as `hook-finished
/// --milliseconds` takes them) and the ninth its status; the rest is split at its first NUL
/// into the format and the command line.
///
/// - The sentence is the format with each placeholder filled in once, in one pass: a value
///   that holds `{status}` or `{duration}` (a command named `{status}`) is not filled in again.
/// - Unknown braces stay as they are.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHookFormat(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = inputBytes(data, size)
  guard bytes.count >= 9 else { return 0 }
  let milliseconds = bytes[0..<8].reduce(0) { $0 << 8 | Int($1) }
  let status = Int32(bytes[8])
  let rest = bytes[9...].split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self) }
  let format = rest[0]
  let commandLine = rest.count > 1 ? rest[1] : ""
  let variable = status == 0 ? "ANNOUNCE_FORMAT_OK" : "ANNOUNCE_FORMAT_FAIL"
  let settings = HookSettings(environment: [variable: format, "ANNOUNCE_MIN_SECONDS": "0"])
  let command = FinishedCommand(
    commandLine: commandLine, status: status, seconds: Double(milliseconds) / 1000)
  guard let sentence = HookMessage.sentence(for: command, settings: settings) else {
    require(
      status == HookMessage.suspendedStatus || status == HookMessage.interruptedStatus || command.seconds < 0
        || CommandWords(commandLine).programs.contains(where: Set(settings.ignored).contains),
      "only a suspended, interrupted, ignored or negative command is not announced")
    return 0
  }
  guard !format.isEmpty else { return 0 }
  let shortName = CommandWords(commandLine).shortName
  let values = [
    "{command}": shortName.isEmpty ? "the command" : shortName,
    "{status}": String(status),
    "{duration}": SpokenDuration.text(seconds: command.seconds),
  ]
  var expected = filledInOnce(format, values)
  if shortName.isEmpty { expected = expected.capitalizedFirst }
  require(
    sentence == expected,
    "the format is filled in once: \(sentence.debugDescription), not \(expected.debugDescription)")
  return 0
}

/// `format` with each placeholder of `values` replaced by its value, reading the format
/// once from its start, character by character, as a template is read.
func filledInOnce(_ format: String, _ values: [String: String]) -> String {
  let characters = Array(format)
  var result = ""
  var index = 0
  scanning: while index < characters.count {
    if characters[index] == "{" {
      for (placeholder, value) in values {
        let pattern = Array(placeholder)
        if index + pattern.count <= characters.count
          && Array(characters[index..<index + pattern.count]) == pattern
        {
          result += value
          index += pattern.count
          continue scanning
        }
      }
    }
    result.append(characters[index])
    index += 1
  }
  return result
}
