import Glibc

/// A detached POSIX thread for blocking work (reading standard input, polling a socket),
/// so that it never occupies one of the few threads of Swift's cooperative pool.
/// Foundation's `Thread` does the same but would pull in all of Foundation.
package enum SystemThread {
  /// Runs `body` on a new detached thread, with a stack of `stackSize` bytes when given
  /// (the system's default, 8 MiB of address space, otherwise). Returns `false` when no
  /// thread could be created.
  @discardableResult
  package static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let box = Unmanaged.passRetained(Body(run: body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, &attributes,
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
