import FoundationEssentials

@testable import announce

/// `--input json`: one line read as ``AnnouncementLine`` reads it, through ``JSONLineCheck``
/// and the decoder.
///
/// - A rejected line's reason is one short line (a screen reader reads it aloud, and the log
///   keeps it): at most ``longestReason`` characters, as it quotes at most 40 of a value.
/// - An accepted line's text, written again as JSON, is read back as the same text.
/// - An accepted line's text is never empty after cleaning.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let line = inputText(data, size)
  do {
    let decoded = try AnnouncementLine.decode(line)
    require(InputLines.cleaned(decoded.text) != nil, "an accepted line has a text to speak")
    guard let json = try? JSONEncoder().encode(["text": decoded.text]) else {
      require(false, "the text of an accepted line can be written as JSON")
      return 0
    }
    let again = try AnnouncementLine.decode(String(decoding: json, as: UTF8.self))
    require(again.text == decoded.text, "a text written again as JSON reads back the same")
  } catch {
    for reason in [error.description, error.english] {
      require(isOneLine(reason), "a rejection's reason is one line: \(reason.debugDescription)")
      require(reason.count <= longestReason, "a rejection's reason is short: \(reason.count) characters")
    }
  }
  return 0
}

/// The longest reason a rejection may give: the longest sentence with a value quoted to its
/// 40 characters fits well within it.
let longestReason = 400
