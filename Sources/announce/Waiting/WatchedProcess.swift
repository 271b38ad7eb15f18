import AnnouncerCore
import CPidfd
import FoundationEssentials
import Glibc

/// The process that `--when-done` waits for, held by a pidfd (pidfd_open(2)).
///
/// The pidfd refers to the process it was opened for and to no other: once the process
/// has ended and been reaped, its number may go to a new process, and the pidfd still
/// reports the old one's end. So a reused PID can never make announce wait for the
/// wrong process. The process need not be announce's child, and as it is not, its exit
/// status is not known: Linux tells only the parent (waitpid(2)), and announce never
/// guesses. Its name and start are read from `/proc` once the pidfd holds it.
final class WatchedProcess: Sendable {
  /// The process ID the user gave.
  let pid: pid_t
  /// The pidfd; closed when the last reference goes.
  let descriptor: Int32
  /// Its name as the kernel keeps it, from `/proc/PID/comm`; `nil` when unreadable.
  let name: String?
  /// When it started, on `CLOCK_BOOTTIME`, from `/proc/PID/stat`; `nil` when unreadable.
  let started: Duration?

  /// Where the background half of `--detach` finds the pidfd its parent opened, so that
  /// it waits for the very process the parent checked.
  static let inheritedDescriptor: Int32 = 3

  /// - Parameter reaped: whether the process is known to be gone from `/proc`, where
  ///   its number may then name another process.
  private init(pid: pid_t, descriptor: Int32, reaped: Bool = false) {
    self.pid = pid
    self.descriptor = descriptor
    let name = reaped ? nil : Self.name(of: pid)
    let stat = reaped ? nil : Self.statFields(of: pid)
    // `/proc/PID` is the pidfd's process only when the pidfd names it by the same number
    // before and after the reads: inside a PID namespace without its own `/proc`, the
    // number names another process there, and a process reaped meanwhile may be replaced.
    let same = Self.procNumber(of: descriptor) == pid && !reaped
    self.name = same ? name : nil
    // A zombie has ended already, at a time nobody kept: its run time is not known.
    let ended = stat?.first == "Z" || stat?.first == "X"
    started = same && !ended ? stat.flatMap(Self.startTime(fromStat:)) : nil
  }

  /// The number by which `/proc` knows the process of `pidfd`, from the pidfd's
  /// fdinfo, in the PID namespace of that `/proc`; -1 once it has been reaped, `nil` when unreadable.
  private static func procNumber(of pidfd: Int32) -> Int32? {
    guard let info = procFile("/proc/self/fdinfo/\(pidfd)"),
      let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Pid:") })
    else { return nil }
    return Int32(line.dropFirst(4).trimmingWhiteSpace)
  }

  deinit { close(descriptor) }

  /// Opens process `pid` for waiting. Throws a usage error when there is no such process,
  /// when it is a thread rather than a process, when it is announce itself, and when it
  /// belongs to another user (one announce could not send a signal to; root may wait
  /// for any process).
  static func open(_ pid: pid_t) throws(RunFailure) -> WatchedProcess {
    guard pid != getpid() else {
      throw RunFailure.usage(
        localized(
          "Process {pid} is this announce itself, which cannot wait for its own end; give the ID of another process.",
          ["pid": String(pid)]))
    }
    let descriptor = pidfd_open(pid, 0)
    guard descriptor >= 0 else { throw openFailure(pid: pid, errno: errno) }
    let process = WatchedProcess(pid: pid, descriptor: descriptor)
    // Signal 0 checks the permission and sends nothing; it goes through the pidfd, so
    // the process checked is the one held. A process that has already ended (ESRCH)
    // is no one's to refuse: its end is announced at once.
    if pidfd_send_signal(descriptor, 0, nil, 0) != 0, errno == EPERM {
      throw RunFailure.usage(
        localized(
          "Process {process} belongs to another user, and announce waits only for your own processes; give the ID of one of yours.",
          ["process": process.spokenName]))
    }
    return process
  }

  /// The pidfd that the foreground half of `--detach` passed on for process `pid`;
  /// `nil` when ``inheritedDescriptor`` is no pidfd of that process.
  static func inherited(_ pid: pid_t) -> WatchedProcess? {
    let descriptor = inheritedDescriptor
    // A pidfd's fdinfo names its process, or -1 once the process has been reaped.
    guard let info = procFile("/proc/self/fdinfo/\(descriptor)"),
      let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Pid:") }),
      let number = Int32(line.dropFirst(4).trimmingWhiteSpace), number == pid || number == -1
    else { return nil }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    return WatchedProcess(pid: pid, descriptor: descriptor, reaped: number == -1)
  }

  /// The sentence for a pidfd_open(2) that failed with `code`.
  private static func openFailure(pid: pid_t, errno code: Int32) -> RunFailure {
    switch code {
    case ESRCH:
      RunFailure.usage(
        localized("There is no process {pid}; find the right ID with pgrep or ps.", ["pid": String(pid)]))
    case EINVAL, ENOENT:
      // pidfd_open(2) takes the ID of a process, the leader of its threads, and refuses
      // the ID of any other thread: with EINVAL up to Linux 6.8, ENOENT since 6.9.
      RunFailure.usage(
        localized(
          "{pid} is the ID of a thread, not of a process; give the ID of its process, which ps -o tgid= -p {pid} prints.",
          ["pid": String(pid)]))
    case ENOSYS:
      RunFailure.serviceUnavailable(
        localized(
          "This kernel has no pidfd_open, which announce needs to wait for a process; Linux 5.3 and later have it."
        ))
    default:
      RunFailure.serviceUnavailable(
        localized(
          "Could not watch process {pid}: {reason}; try again.",
          ["pid": String(pid), "reason": SystemReason.printed(code)]))
    }
  }

  /// The process as a sentence names it: `1234, make,` or, with no name, `1234`.
  var spokenName: String { name.map { "\(pid), \($0)," } ?? "\(pid)" }

  /// The default announcement for its end at `ended`, on `CLOCK_BOOTTIME`: "Process
  /// 1234, make, finished after 2 minutes 5 seconds." Its exit status is not known. In
  /// the language of `wording`; English by default.
  func sentence(endedAt ended: Duration, in wording: Wording = .english) -> String {
    guard let started else {
      return wording.localized("Process {process} finished.").replacingBytes(
        of: "{process}", with: spokenName)
    }
    return wording.localized("Process {process} finished after {duration}.")
      .replacingBytes(of: "{process}", with: spokenName)
      .replacingBytes(
        of: "{duration}", with: SpokenDuration.text(seconds: (ended - started).seconds, in: wording))
  }

  /// Calls `ended` with the time, on `CLOCK_BOOTTIME`, once the process has ended (it
  /// may have ended already). The wait blocks a thread of its own in poll(2), never one
  /// of Swift's cooperative pool. Returns `false` when no thread could be started.
  func onEnd(_ ended: @escaping @Sendable (Duration) -> Void) -> Bool {
    SystemThread.start(stackSize: 64 << 10) { [self] in
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      // A pidfd becomes readable when its process ends; poll is only woken early by a
      // signal, and announce's own signals are handled elsewhere.
      while poll(&entry, 1, -1) < 0 && errno == EINTR {}
      ended(Self.now())
    }
  }

  /// The time since boot, suspend included: the clock of `/proc/PID/stat`'s start times.
  static func now() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_BOOTTIME, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  /// The process's name, from `/proc/PID/comm`.
  private static func name(of pid: pid_t) -> String? {
    guard let text = procFile("/proc/\(pid)/comm") else { return nil }
    // A process names itself (prctl(2), or its file's name), so the name may hold escape
    // sequences and line breaks: each control character becomes a space.
    let shown = String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    let name = shown.trimmingWhiteSpace
    return name.isEmpty ? nil : String(name)
  }

  /// The fields of `/proc/PID/stat` from the third, the state, on. The name in field 2
  /// is in brackets and may hold spaces and brackets itself, so the fields are counted
  /// from the last closing bracket.
  private static func statFields(of pid: pid_t) -> [Substring]? {
    guard let text = procFile("/proc/\(pid)/stat"), let nameEnd = text.lastIndex(of: ")") else { return nil }
    return text[text.index(after: nameEnd)...].split(separator: " ")
  }

  /// When the process started, from field 22 of `/proc/PID/stat` (given from field 3 on),
  /// in clock ticks since boot.
  private static func startTime(fromStat fields: [Substring]) -> Duration? {
    // fields[0] is field 3, the state.
    guard fields.count > 19, let ticks = Int64(fields[19]) else { return nil }
    let perSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
    guard perSecond > 0 else { return nil }
    return .seconds(ticks / perSecond) + .nanoseconds(ticks % perSecond * (1_000_000_000 / perSecond))
  }

  /// The text of a small file of `/proc`, such as `/proc/PID/stat`; `nil` when it cannot
  /// be read. Those files say their size is 0, so this reads until the end.
  private static func procFile(_ path: String) -> String? {
    let file = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = block.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { return String(decoding: bytes, as: UTF8.self) }
      bytes += block[..<count]
    }
  }
}
