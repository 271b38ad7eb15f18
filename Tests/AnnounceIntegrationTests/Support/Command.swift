import Foundation
import Synchronization

/// Runs programs for tests: to completion, or in the background while watching their output.
enum Command {
  /// A `HOME` and an `XDG_STATE_HOME` of a run's own, in a new folder under the test's
  /// temporary directory: with the real ones, a run's outcomes went into the outcome log
  /// of whoever ran the tests, and a sound tool's cookie into their home folder.
  static func privateHome() -> [String: String] {
    let home = NSTemporaryDirectory() + "announce-home-\(UUID().uuidString.prefix(8))"
    return ["HOME": home, "XDG_STATE_HOME": home + "/state"]
  }

  /// `environment` (the test process's own when `nil`) as every program the tests start
  /// gets it: a HOME that is missing, or is the real one, is replaced by a folder of the
  /// test process's own, and so is an XDG_STATE_HOME that is the real one. A program run
  /// without HOME falls back to the home of the user's passwd entry: the clean room found
  /// announce's outcome log and PulseAudio's cookie (doctor's `pactl`) in root's home from runs
  /// whose environment had no HOME.
  static func sheltered(_ environment: [String: String]?) -> [String: String] {
    let own = ProcessInfo.processInfo.environment
    var sheltered = environment ?? own
    let realHomes = [own["HOME"], passwdHome].compactMap { $0 }
    if sheltered["HOME"].map(realHomes.contains) ?? true { sheltered["HOME"] = shelter }
    if let state = sheltered["XDG_STATE_HOME"], state == own["XDG_STATE_HOME"] {
      sheltered["XDG_STATE_HOME"] = shelter + "/.local/state"
    }
    return sheltered
  }

  /// The home of the user's passwd entry, which programs use when HOME is not set.
  private static let passwdHome: String? = getpwuid(getuid()).flatMap { $0.pointee.pw_dir }.map {
    String(cString: $0)
  }

  /// The HOME of the programs whose own was missing or the real one: under the test
  /// process's temporary directory, made on first use and removed when the process exits.
  private static let shelter: String = {
    let path = shelterPath
    try? FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    atexit { try? FileManager.default.removeItem(atPath: Command.shelterPath) }
    return path
  }()

  private static var shelterPath: String { NSTemporaryDirectory() + "announce-shelter-\(getpid())" }

  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var seconds: Double
  }

  /// The built `announce` binary, next to the test bundle.
  static let announce: String = {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return executable.deletingLastPathComponent().appendingPathComponent("announce").path
  }()

  /// Runs `path` to completion with `arguments`, feeding it `input` on standard input.
  static func run(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil,
    input: String? = nil, timeout: Double = 60
  ) throws -> Result {
    let running = try Running(path, arguments, environment: environment, input: input)
    return running.wait(timeout: timeout)
  }
}

/// posix_spawn attributes that start a child as a shell would: no signal blocked, and the
/// default action for the signals a test process may handle or ignore.
final class ChildSignals {
  var attributes = posix_spawnattr_t()

  init() {
    posix_spawnattr_init(&attributes)
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  }

  deinit { posix_spawnattr_destroy(&attributes) }
}

struct SpawnError: Error, CustomStringConvertible {
  var description: String
}

/// A program running in the background, with its output collected as it arrives.
///
/// It is spawned with `posix_spawn` and a clean signal mask: the test runner's threads
/// block signals, and a child spawned from them with Foundation's `Process` would
/// inherit that mask and ignore SIGINT and SIGTERM.
final class Running: Sendable {
  let pid: pid_t
  private let output = Locked((out: Data(), err: Data(), openStreams: 2))
  private let started = Date()
  private let stdinFD = Locked<Int32>(-1)

  init(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil,
    input: String? = nil, keepStandardInputOpen: Bool = false
  ) throws {
    var inPipe: [Int32] = [0, 0]
    var outPipe: [Int32] = [0, 0]
    var errPipe: [Int32] = [0, 0]
    guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
      throw SpawnError(description: "pipe failed")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }

    let spawn = ChildSignals()

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let environmentList =
      Command.sheltered(environment)
      .map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in environmentList { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, path, &actions, &spawn.attributes, argv, environmentList)
    close(inPipe[0])
    close(outPipe[1])
    close(errPipe[1])
    guard status == 0 else {
      for fd in [inPipe[1], outPipe[0], errPipe[0]] { close(fd) }
      throw SpawnError(description: "could not start \(path): \(String(cString: strerror(status)))")
    }
    self.pid = pid
    stdinFD.withLock { $0 = inPipe[1] }
    startReader(outPipe[0], isError: false)
    startReader(errPipe[0], isError: true)
    if let input { write(input) }
    if !keepStandardInputOpen { closeInput() }
  }

  private func startReader(_ fd: Int32, isError: Bool) {
    let output = self.output
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = read(fd, &buffer, buffer.count)
        if count <= 0 { break }
        let data = Data(buffer[0..<count])
        output.withLock { isError ? $0.err.append(data) : $0.out.append(data) }
      }
      close(fd)
      output.withLock { $0.openStreams -= 1 }
    }
    thread.start()
  }

  /// Writes `text` to the program's standard input; gives up quietly once the program is gone.
  /// The lock is not held while writing, so a write blocked on a full pipe cannot block `wait()`.
  func write(_ text: String) {
    signal(SIGPIPE, SIG_IGN)
    let fd = stdinFD.withLock { $0 }
    guard fd >= 0 else { return }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if written <= 0 { break }
      offset += written
    }
  }

  /// Closes the program's standard input.
  func closeInput() {
    stdinFD.withLock { fd in
      if fd >= 0 { close(fd) }
      fd = -1
    }
  }

  /// Sends `signal` to the program.
  func send(_ signal: Int32) { kill(pid, signal) }

  var standardError: String { output.withLock { String(decoding: $0.err, as: UTF8.self) } }
  var standardOutput: String { output.withLock { String(decoding: $0.out, as: UTF8.self) } }

  /// Waits until standard error or output contains `text`; false on timeout.
  func waitForOutput(containing text: String, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if standardError.contains(text) || standardOutput.contains(text) { return true }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return false
  }

  /// Waits for the program to exit, at most `timeout` seconds, then kills it.
  /// A program killed by a signal reports 128 plus the signal number, as a shell would.
  func wait(timeout: Double = 60) -> Command.Result {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    var exitStatus: Int32 = -1
    while true {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid {
        let signal = status & 0x7f
        exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        break
      }
      if reaped < 0 { break }
      if Date() >= deadline { kill(pid, SIGKILL) }
      Thread.sleep(forTimeInterval: 0.005)
    }
    let seconds = Date().timeIntervalSince(started)
    closeInput()
    // Give the readers a moment to reach end of file; a daemon the program started
    // may hold the pipes open, so do not wait for ever.
    let drainDeadline = Date().addingTimeInterval(1)
    while output.withLock({ $0.openStreams > 0 }), Date() < drainDeadline {
      Thread.sleep(forTimeInterval: 0.005)
    }
    return Command.Result(
      status: exitStatus, standardOutput: standardOutput, standardError: standardError,
      seconds: seconds)
  }
}
