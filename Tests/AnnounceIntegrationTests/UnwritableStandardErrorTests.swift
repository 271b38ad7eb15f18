import Foundation
import Testing
import AnnouncerTesting

/// A standard error that cannot be written must not end the run: the command exits with
/// the status of what happened, not by a trap (SIGILL, 132).
@Suite struct UnwritableStandardErrorTests {
  /// What standard error is for the run.
  enum Target: String, CaseIterable, CustomTestStringConvertible {
    /// A pipe whose reader has gone: EPIPE.
    case closedPipe
    /// A full disk: ENOSPC.
    case fullDevice
    /// No descriptor 2 at all: EBADF.
    case closedDescriptor

    var testDescription: String { rawValue }
  }

  /// Runs announce with `arguments`, standard output on /dev/null and standard error
  /// as `target` says; returns the exit status as a shell reports it.
  func run(_ arguments: [String], standardError target: Target) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var ends: [Int32] = [-1, -1]
    switch target {
    case .closedPipe:
      guard pipe(&ends) == 0 else { throw SpawnError(description: "pipe failed") }
      close(ends[0])
      posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
      posix_spawn_file_actions_addclose(&actions, ends[1])
    case .fullDevice:
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/full", O_WRONLY, 0)
    case .closedDescriptor:
      posix_spawn_file_actions_addclose(&actions, 2)
    }
    defer { if ends[1] >= 0 { close(ends[1]) } }
    let spawn = ChildSignals()
    var environment = ProcessInfo.processInfo.environment.merging(Command.privateHome()) { _, own in own }
    environment["SPEECHD_ADDRESS"] = "unix_socket:" + UnusedPath.file("announce.sock")
    let argv = ([Command.announce] + arguments).map { strdup($0) } + [nil]
    let environmentList = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in environmentList { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, Command.announce, &actions, &spawn.attributes, argv, environmentList)
    guard spawned == 0 else { throw SpawnError(description: String(cString: strerror(spawned))) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }

  @Test(arguments: Target.allCases)
  func anUnreachableDaemonStillExits69(target: Target) throws {
    #expect(try run(["--verbose", "one", "two", "three"], standardError: target) == 69)
  }

  @Test(arguments: Target.allCases)
  func aUsageErrorStillExits64(target: Target) throws {
    #expect(try run(["--rate", "500", "x"], standardError: target) == 64)
  }

  @Test(arguments: Target.allCases)
  func badSSMLStillExits65(target: Target) throws {
    #expect(try run(["--ssml", "<x"], standardError: target) == 65)
  }
}
