import Glibc

/// Runs a program found on `PATH` and reads its standard output, within a bound: for
/// asking tmux about its hooks, the sound server about its sink, a program its version.
enum ChildOutput {
  /// The standard output of `program` run with `arguments`, or `nil` when it could not
  /// be started, failed, or did not end within `bound` (it is then killed).
  ///
  /// - Parameter environment: the child's whole environment, as `NAME=value`; `nil`
  ///   passes on doctor's own.
  static func read(
    _ program: String, _ arguments: [String], within bound: Duration, environment: [String]? = nil
  ) -> String? {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return nil }
    // Neither end may leak into another child; the spawn's dup2 makes a copy without the flag.
    for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned: Int32
    if let environment {
      let envp = environment.map { strdup($0) } + [nil]
      defer { for pointer in envp { free(pointer) } }
      spawned = posix_spawnp(&pid, program, &actions, nil, argv, envp)
    } else {
      spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
    }
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    guard spawned == 0 else { return nil }
    let deadline = ContinuousClock.now + bound
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var entry = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
    var ended = false
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { break }
      let milliseconds = Int32(
        clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { break }
      let count = Glibc.read(pipeEnds[0], &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        ended = true
        break
      }
      output += buffer[0..<count]
    }
    if !ended { kill(pid, SIGKILL) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard ended, status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return nil }
    return String(decoding: output, as: UTF8.self)
  }
}
