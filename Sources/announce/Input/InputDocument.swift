import AnnouncerCore
import Glibc

/// Reads all of standard input as one document (`--input json-document`), such as the
/// JSON object a coding agent's hook writes, whether or not it spans lines.
enum InputDocument {
  /// The largest document, in bytes: 16 mebibytes. A coding agent's reply of 10 MB is
  /// read and said shortened; a larger document is rejected with one sentence, and
  /// reading it takes no more memory than this.
  static let maxBytes = 16 << 20

  /// Standard input as one line, numbered 1; an overlong document keeps only its start
  /// and is marked overlong.
  static func standardInput(maxBytes: Int = maxBytes) -> AsyncStream<InputLines.Line> {
    let (lines, continuation) = AsyncStream.makeStream(of: InputLines.Line.self)
    let started = SystemThread.start {
      var bytes: [UInt8] = []
      var overlong = false
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: InputLines.readSize, alignment: 1)
      defer { buffer.deallocate() }
      while true {
        let count = read(0, buffer.baseAddress, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        // The rest of an overlong document is read and let go, so that the writer is
        // not stopped by a full pipe.
        guard !overlong else { continue }
        bytes.append(contentsOf: buffer[..<count])
        if bytes.count > maxBytes {
          overlong = true
          bytes.removeSubrange(InputLines.overlongPrefixBytes...)
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      if overlong {
        continuation.yield(InputLines.Line(number: 1, text: text + "…", isOverlong: true))
      } else {
        // A blank document is no JSON object, and is rejected as one.
        continuation.yield(InputLines.Line(number: 1, text: InputLines.cleaned(text) ?? ""))
      }
      continuation.finish()
    }
    if !started { continuation.finish() }
    return lines
  }
}
