@testable import announce

/// The tmux alert's sentence (``TmuxAlertSentence``) from a window's and a session's names,
/// which programs set through the terminal, and the rate limit's key parts
/// (``TmuxAlert/keyPart(_:)``) from the server's, window's and alert's names.
///
/// The input is split at its first two NUL bytes into the window's name, the session's
/// name and a key part.
///
/// - A sentence is one line with no control character, and ends with `.`, `!` or `?`.
/// - A name is spoken with at most ``TmuxAlertSentence/maxNameCharacters`` characters.
/// - A key part has only letters, digits and `@`, so that a key is one field.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTmuxAlert(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let parts = inputBytes(data, size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self) }
  let windowName = parts[0]
  let session = parts.count > 1 ? parts[1] : nil
  let keyPart = parts.count > 2 ? parts[2] : windowName
  let spoken = TmuxAlertSentence.spoken(windowName)
  require(spoken.count <= TmuxAlertSentence.maxNameCharacters, "a spoken name is short: \(spoken.count)")
  require(TmuxAlertSentence.spoken(spoken) == spoken, "a spoken name is spoken as it is")
  for kind in TmuxAlertKind.allCases {
    for index in [0, 7, -1, Int.max] {
      let sentence = TmuxAlertSentence.text(
        kind: kind, index: index, windowName: windowName, session: session)
      require(isOneLine(sentence), "an alert is one line: \(sentence.debugDescription)")
      require(
        !sentence.unicodeScalars.contains { $0.properties.generalCategory == .control },
        "an alert has no control character: \(sentence.debugDescription)")
      require(
        sentence.last.map { ".!?".contains($0) } ?? false,
        "an alert ends a sentence: \(sentence.debugDescription)")
    }
  }
  let key = TmuxAlert.keyPart(keyPart)
  require(
    key.unicodeScalars.allSatisfy {
      $0 == "@" || $0.properties.isAlphabetic || $0.properties.numericType != nil
    },
    "a key part has only letters, digits and @: \(key.debugDescription)")
  require(!key.contains("/"), "a key part has no slash")
  return 0
}
