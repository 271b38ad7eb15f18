import Glibc

/// A detached POSIX thread for blocking work (reading standard input, polling a socket),
/// so that it never occupies one of the few threads of Swift's cooperative pool.
/// Foundation's `Thread` does the same but would pull in all of Foundation.
package enum SystemThread {
  /// Runs `body` on a new detached thread. Returns `false` when no thread could be created.
  @discardableResult
  package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
    let box = Unmanaged.passRetained(Body(run: body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        body.run()
        return nil
      }, box)
    guard created == 0 else {
      Unmanaged<Body>.fromOpaque(box).release()
      return false
    }
    pthread_detach(thread)
    return true
  }

  private final class Body {
    let run: @Sendable () -> Void
    init(run: @escaping @Sendable () -> Void) {
      self.run = run
    }
  }
}

/// The user's home directory without Foundation: `HOME` when set, else the password database.
package enum HomeDirectory {
  package static func path(environment: [String: String]) -> String {
    if let home = environment["HOME"], !home.isEmpty { return home }
    guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
    return String(cString: directory)
  }
}
