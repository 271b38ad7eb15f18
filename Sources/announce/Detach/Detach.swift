import CSpawn
import FoundationEssentials
import Glibc

/// Starts the delivery of `--detach` in the background.
///
/// The process is multi-threaded (libspeechd's event thread, Dispatch, Swift
/// concurrency), so it never forks. It executes itself again, `/proc/self/exe`, with
/// `posix_spawn` in a new session, with the same arguments less `--detach` and with
/// ``childFlag`` added. The environment is passed on unchanged, so the child resolves
/// every option exactly as the parent did. The child's standard output and error go to
/// `/dev/null`; its outcomes go to the ``OutcomeLog``. Its standard input is `/dev/null`
/// when the announcements are TEXT arguments, and the parent's standard input otherwise,
/// so that the child goes on reading a pipe after the parent has exited.
enum Detach {
  /// The hidden flag that makes a process the background half of `--detach`.
  static let childFlag = "--detached-child"
  /// The flag the user gives.
  static let flag = "--detach"

  /// The child's arguments: `arguments` without `--detach` before the end of the options
  /// (`--`), and with ``childFlag`` first.
  static func childArguments(from arguments: [String]) -> [String] {
    var result = [childFlag]
    var optionsEnded = false
    for argument in arguments {
      if argument == "--" { optionsEnded = true }
      if !optionsEnded && argument == flag { continue }
      result.append(argument)
    }
    return result
  }

  /// Starts the child and returns its process id.
  ///
  /// - Parameters:
  ///   - arguments: the command's own arguments, without the program name.
  ///   - passesStandardInput: whether the child reads the parent's standard input.
  ///   - processDescriptor: the pidfd of `--when-done`, which the child gets as
  ///     ``WatchedProcess/inheritedDescriptor``.
  static func spawnChild(
    arguments: [String], passesStandardInput: Bool, processDescriptor: Int32? = nil
  ) throws(DetachError)
    -> pid_t
  {
    markDescriptorsCloseOnExec()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let processDescriptor {
      // A copy above it, since dup2 onto the same number would leave close-on-exec set.
      let copy = fcntl(processDescriptor, F_DUPFD_CLOEXEC, WatchedProcess.inheritedDescriptor + 1)
      posix_spawn_file_actions_adddup2(&actions, copy, WatchedProcess.inheritedDescriptor)
    }
    if !passesStandardInput {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    // Signals the parent or its shell ignored (SIGPIPE, and SIGINT for a background job)
    // would stay ignored across exec; the child handles them itself.
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, cspawn_setsid | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let program = CommandLine.arguments.first ?? "announce"
    let argv = ([program] + childArguments(from: arguments)).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, environ)
    guard status == 0 else { throw DetachError(code: status) }
    return pid
  }

  /// Marks every descriptor above standard error close-on-exec, so that the child
  /// inherits none of ours, such as the connection to speech-dispatcher. The parent
  /// exits right after, so the flag changes nothing for it.
  private static func markDescriptorsCloseOnExec() {
    guard let directory = opendir("/proc/self/fd") else { return }
    defer { closedir(directory) }
    let own = dirfd(directory)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let fd = Int32(name), fd > 2, fd != own else { continue }
      let flags = fcntl(fd, F_GETFD)
      if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }
  }
}

/// The background process could not be started.
struct DetachError: Error, CustomStringConvertible {
  /// The `errno` value posix_spawn returned.
  var code: Int32

  var description: String {
    // TRANSLATORS: {reason} is the system's reason, such as "Resource temporarily unavailable".
    localized(
      "Could not start the background process for --detach: {reason}; run announce without --detach.",
      ["reason": SystemReason.printed(code)])
  }
}
