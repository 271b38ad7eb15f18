import Glibc

/// Runs a program found on `PATH` and reads its standard output, within a bound: for
/// asking tmux about its hooks, the sound server about its sink, a program its version.
///
/// The bound covers the whole child, its exit too: a tool that closed its output but
/// did not end (a `pactl` that printed a line and then hung kept doctor waiting 32 s,
/// against the 8 s promised) is killed at the deadline, with every process it started.
enum ChildOutput {
  /// What became of one run of a program.
  enum Answer: Sendable, Equatable {
    /// It ended with status 0 within the bound, having written this.
    case output(String)
    /// It could not be started, or it ended within the bound with another status or by
    /// a signal: such as a `pactl` that found no sound server to ask.
    case failed
    /// It had not ended within the bound, so it was killed.
    case timedOut
  }

  /// How long a killed child may take to be reaped before it is left to the end of the
  /// process: SIGKILL ends one at once, unless it waits in the kernel (on a hung NFS
  /// mount, say), where no signal reaches it.
  static let reapBound: Duration = .milliseconds(100)

  /// How often the exit of a child that closed its output is looked for: most exit
  /// within microseconds of closing it.
  static let exitPollPause: Duration = .milliseconds(5)

  /// The standard output of `program` run with `arguments`, or `nil` when it could not
  /// be started, failed, or did not end within `bound` (it is then killed).
  ///
  /// - Parameter environment: the child's whole environment, as `NAME=value`; `nil`
  ///   passes on doctor's own.
  static func read(
    _ program: String, _ arguments: [String], within bound: Duration, environment: [String]? = nil
  ) -> String? {
    guard case .output(let text) = run(program, arguments, within: bound, environment: environment) else {
      return nil
    }
    return text
  }

  /// What became of `program` run with `arguments`, all within `bound`: reading its output,
  /// and waiting for it to end. At the bound its process group is killed and reaped.
  ///
  /// The child leads a process group of its own, so that what it started (a shell script's
  /// `sleep`, say) is killed with it rather than left running.
  static func run(
    _ program: String, _ arguments: [String], within bound: Duration, environment: [String]? = nil
  ) -> Answer {
    let deadline = ContinuousClock.now + bound
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return .failed }
    // Neither end may leak into another child; the spawn's dup2 makes a copy without the flag.
    for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(pipeEnds[0]) }
    guard let pid = spawn(program, arguments, output: pipeEnds[1], environment: environment) else {
      close(pipeEnds[1])
      return .failed
    }
    close(pipeEnds[1])
    guard let output = readToEnd(pipeEnds[0], until: deadline),
      let status = exitStatus(of: pid, until: deadline)
    else {
      kill(-pid, SIGKILL)
      reap(pid)
      return .timedOut
    }
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return .failed }
    return .output(String(decoding: output, as: UTF8.self))
  }

  /// The spawned child's pid, with standard input and error on /dev/null and standard
  /// output on `output`; `nil` when it could not be started.
  private static func spawn(
    _ program: String, _ arguments: [String], output: Int32, environment: [String]?
  ) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The tool gets the signals' default actions, not the ignoring that announce's own
    // handling starts with: a tmux or pactl that ignored SIGTERM would outlive doctor.
    var defaults = ProcessSignals.ignoredUntilCaught
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned: Int32
    if let environment {
      let envp = environment.map { strdup($0) } + [nil]
      defer { for pointer in envp { free(pointer) } }
      spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
    } else {
      spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
    }
    return spawned == 0 ? pid : nil
  }

  /// Everything read from `descriptor` until its end, or `nil` when it has not ended by
  /// `deadline`.
  private static func readToEnd(_ descriptor: Int32, until deadline: ContinuousClock.Instant) -> [UInt8]? {
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return nil }
      let ready = poll(&entry, 1, milliseconds(roundingUp: left))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      let count = Glibc.read(descriptor, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return output }
      output += buffer[0..<count]
    }
  }

  /// The wait status of `pid` once it has ended, or `nil` when it has not by `deadline`;
  /// -1, which no exit gives, when it cannot be waited for (it is no child of ours).
  private static func exitStatus(of pid: pid_t, until deadline: ContinuousClock.Instant) -> Int32? {
    var status: Int32 = 0
    while true {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid { return status }
      if reaped < 0 && errno != EINTR { return -1 }
      guard ContinuousClock.now + exitPollPause < deadline else { return nil }
      pause(exitPollPause)
    }
  }

  /// Reaps a killed child, waiting at most ``reapBound``.
  private static func reap(_ pid: pid_t) {
    _ = exitStatus(of: pid, until: .now + reapBound)
  }

  /// `duration` in whole milliseconds, rounded up, for `poll`: at least 1.
  private static func milliseconds(roundingUp duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: max(milliseconds, 1))
  }

  /// A signal may cut the pause short; the loop then only looks once more sooner.
  private static func pause(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
  }
}
