import Glibc
import Synchronization

/// Paths that a test names but never makes: a socket where nothing listens, a log that
/// cannot be opened, a `HOME` that holds nothing.
///
/// Each lies in a folder of its own under the temporary directory (`TMPDIR`, else `/tmp`),
/// named for this process and a counter, which nothing creates. So the system answers the
/// same there on every machine: no such file or directory. A fixed path such as
/// `/nonexistent` is something on one machine and nothing on another: a test that named it
/// passed where a directory stood there (`connect()` answered "connection refused") and
/// failed on a new user's machine ("no such file or directory").
package enum UnusedPath {
  /// Counts the folders named so far; the tests run in parallel.
  private static let counter = Mutex(0)

  /// A folder's path that no one has made, new at each call.
  package static func folder() -> String {
    let temporary = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let trimmed = temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
    let number = counter.withLock { count in
      count += 1
      return count
    }
    return "\(trimmed)/announce-unused-\(getpid())-\(number)"
  }

  /// A file called `name` in a new ``folder()``.
  package static func file(_ name: String) -> String {
    folder() + "/" + name
  }
}
