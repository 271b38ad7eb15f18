import Foundation

/// A directory of a test's own for sockets, under /tmp so that a unix socket's path fits,
/// removed with the test.
final class SocketDirectory {
  let path: String

  init(_ name: String) throws {
    var template = Array("/tmp/announce-core-\(name)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
    path = String(cString: made)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
