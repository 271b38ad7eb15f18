import Glibc
import Synchronization

/// Speaking turns shared by every announce process of one user that speaks to
/// the same speech-dispatcher: first come, first served.
///
/// Each place in line is a ticket file in one directory, named by the time it
/// was taken, and locked with `flock` by its owner for as long as it is held.
/// The owner of the oldest live ticket takes the turn by locking the file
/// `turn` with `flock`, and renames its ticket `held-…` while it speaks. So:
/// - the order is the order in which announcers asked (fair, no overtaking),
///   and the lock on `turn` lets only one speak at a time;
/// - a waiter sleeps in the kernel, in a thread of its own, on the lock of the
///   ticket just ahead of it (the first in line on `turn`), and is woken when that
///   lock is let go: handing the turn on wakes one process, not every waiter;
/// - a ticket or turn left by a killed process is unlocked by the kernel, and
///   the next announcer that sees the ticket removes it: nobody ever waits on
///   a dead process;
/// - an owner renews its ticket's time stamp every second, and a locked ticket
///   not renewed for ``staleAfter`` (a stopped process, Control-Z) is passed over;
///   a waiter looks again every ``recheckInterval`` to notice one.
package final class SharedSpeakingTurns: SpeakingTurns {
  /// How often a waiting announcer looks again without being woken, to pass
  /// over an announcer that stopped renewing its ticket.
  package let recheckInterval: Duration
  /// How often an owner renews its ticket's time stamp.
  package static let renewalInterval: Duration = .seconds(1)
  /// A locked ticket not renewed for this long is passed over.
  package static let staleAfter: Duration = .seconds(5)

  /// The directory that holds the tickets.
  package let directory: String

  private struct Ticket {
    var name: String
    let descriptor: Int32
    /// Whether this ticket holds the lock on `turn`.
    var holdsTurnLock = false
  }

  private struct State {
    var ticket: Ticket?
    var serial = 0
    var renewal: Task<Void, Never>?
    /// The time the first ticket carries, in nanoseconds since 1970; later tickets carry the time they are taken.
    var firstTicketTime: UInt64?
  }

  private let state = Mutex(State())
  /// The file whose `flock` is the turn itself.
  private let turnDescriptor: Int32

  /// Coordinates through `directory`, which is created (mode 0700) if missing.
  ///
  /// Returns `nil` when the directory cannot be made or is not a private
  /// directory of ours; announce then speaks without coordination.
  ///
  /// - Parameter since: when this announcer started (see ``wallClockNow()``); its
  ///   first place in line is dated then, so processes started together speak in start order.
  package convenience init?(directory: String, since: UInt64? = nil) {
    self.init(directory: directory, since: since, recheckInterval: .seconds(1))
  }

  package init?(directory: String, since: UInt64? = nil, recheckInterval: Duration) {
    guard Self.privateDirectoryProblem(directory) == nil else { return nil }
    let turnDescriptor = open(directory + "/turn", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard turnDescriptor >= 0 else { return nil }
    self.directory = directory
    self.turnDescriptor = turnDescriptor
    self.recheckInterval = recheckInterval
    state.withLock { $0.firstTicketTime = since }
  }

  /// The wall-clock time in nanoseconds since 1970, for ``init(directory:since:)``.
  package static func wallClockNow() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }

  deinit {
    release()
    close(turnDescriptor)
  }

  /// The turns for every announce process of this user speaking to `address`.
  ///
  /// The tickets live in `$XDG_RUNTIME_DIR/announce`, or in `/tmp/announce-UID`
  /// when `XDG_RUNTIME_DIR` is not set; each speech-dispatcher address has its own line.
  /// Fails when that directory cannot be made, or is not a private directory of ours
  /// (another user may have made `/tmp/announce-UID` first); announce then speaks
  /// without coordination and says why.
  package static func forUser(
    address: String, environment: [String: String], since: UInt64? = nil
  ) -> Result<SharedSpeakingTurns, TurnsUnavailable> {
    let base: String
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      base = runtime + "/announce"
    } else {
      base = "/tmp/announce-\(getuid())"
    }
    let directory = base + "/turns-" + fingerprint(of: address)
    for path in [base, directory] {
      if let problem = privateDirectoryProblem(path) {
        return .failure(TurnsUnavailable(directory: path, problem: problem))
      }
    }
    guard let turns = SharedSpeakingTurns(directory: directory, since: since) else {
      return .failure(TurnsUnavailable(directory: directory, problem: .cannotMake(errno: errno)))
    }
    return .success(turns)
  }

  package func tryTake() -> Bool {
    let ticket = state.withLock { state -> Ticket? in
      if let ticket = state.ticket { return ticket }
      state.serial += 1
      state.ticket = makeTicket(serial: state.serial, time: state.firstTicketTime ?? Self.wallClockNow())
      state.firstTicketTime = nil
      return state.ticket
    }
    // Without a ticket (the directory vanished and cannot be made again), speak uncoordinated.
    guard let ticket else { return true }
    // A waiting ticket is renewed too, so that those behind never pass it over.
    startRenewal()
    return takeIfFirst(ticket).granted
  }

  package func take() async throws {
    var watch: (name: String, lock: LockWatch)?
    while true {
      try Task.checkCancellation()
      guard let ticket = state.withLock({ $0.ticket }) else { throw CancellationError() }
      let look = takeIfFirst(ticket)
      if look.granted { return }
      // Sleep on the lock of whoever is just ahead (the speaker's `turn` when we are
      // first), and look again when it is let go, or after recheckInterval.
      let ahead = look.ahead.map { path(of: $0) } ?? path(of: "turn")
      if watch?.name != ahead {
        guard let lock = LockWatch(path: ahead) else { continue }  // it just went away
        watch = (ahead, lock)
      }
      if await watch?.lock.waitForRelease(upTo: recheckInterval) == true { watch = nil }
    }
  }

  package func release() {
    let renewal = state.withLock { state in
      if let ticket = state.ticket {
        // The turn first: whoever is woken by the ticket's lock finds the turn free.
        if ticket.holdsTurnLock { flock(turnDescriptor, LOCK_UN) }
        unlink(path(of: ticket.name))
        close(ticket.descriptor)
      }
      defer {
        state.ticket = nil
        state.renewal = nil
      }
      return state.renewal
    }
    renewal?.cancel()
  }

  // MARK: Tickets

  /// A new ticket, locked before it appears under its real name so nobody takes it for abandoned.
  private func makeTicket(serial: Int, time: UInt64) -> Ticket? {
    let name =
      Self.padded(time, to: 20) + "-" + Self.padded(UInt64(getpid()), to: 10) + "-"
      + Self.padded(UInt64(serial), to: 6)
    let temporary = path(of: ".new-" + name)
    for _ in 0..<2 {
      let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
      if descriptor < 0 {
        // The directory may have been removed, for example by a tmp cleaner: make it again.
        guard Self.privateDirectoryProblem(directory) == nil else { return nil }
        continue
      }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, rename(temporary, path(of: name)) == 0
      else {
        unlink(temporary)
        close(descriptor)
        return nil
      }
      return Ticket(name: name, descriptor: descriptor)
    }
    return nil
  }

  /// Takes the turn when `ticket` is the oldest live one and nobody holds the
  /// turn, or the holder has stopped renewing its ticket. Otherwise says which
  /// live ticket is just ahead (`nil`: nobody, the turn is busy).
  private func takeIfFirst(_ ticket: Ticket) -> (granted: Bool, ahead: String?) {
    let (ahead, heldByLiveOwner) = look(from: ticket)
    guard ahead == nil else { return (false, ahead) }
    let locked = flock(turnDescriptor, LOCK_EX | LOCK_NB) == 0
    // The lock is busy although no holder renews its ticket: the holder is stopped, or
    // just between taking the lock and renaming its ticket; only the first is passed over.
    guard locked || !heldByLiveOwner.isEmpty && heldByLiveOwner.allSatisfy({ !$0 }) else {
      return (false, nil)
    }
    let granted = state.withLock { state -> Bool in
      guard var current = state.ticket, current.name == ticket.name else { return false }
      let heldName = "held-" + current.name
      if rename(path(of: current.name), path(of: heldName)) == 0 { current.name = heldName }
      current.holdsTurnLock = locked
      state.ticket = current
      return true
    }
    guard granted else {
      if locked { flock(turnDescriptor, LOCK_UN) }
      return (false, nil)
    }
    startRenewal()
    return (true, nil)
  }

  /// The nearest live, renewed ticket before `ticket` (`nil` when there is none),
  /// and for each live held ticket whether its owner renews it. Removes abandoned
  /// tickets on the way.
  private func look(from ticket: Ticket) -> (ahead: String?, heldByLiveOwner: [Bool]) {
    guard let listing = opendir(directory) else { return (nil, []) }
    defer { closedir(listing) }
    var before: [String] = []
    var held: [Bool] = []
    while let entry = readdir(listing) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasPrefix(".new-") {
        removeIfAbandoned(name, olderThan: .seconds(10))
      } else if name.hasPrefix("held-") {
        if let renewed = liveness(of: name) { held.append(renewed) }
      } else if name.first?.isNumber == true, name < ticket.name {
        before.append(name)
      }
    }
    // Usually the nearest one is live: one open, however long the line.
    for name in before.sorted(by: >) where liveness(of: name) == true {
      return (name, held)
    }
    return (nil, held)
  }

  /// `nil` when the ticket `name` is gone or abandoned (and then removed); otherwise
  /// whether its owner has renewed it lately.
  private func liveness(of name: String) -> Bool? {
    let descriptor = open(path(of: name), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
      unlink(path(of: name))
      return nil
    }
    return Self.age(of: descriptor) < Self.staleAfter
  }

  private func removeIfAbandoned(_ name: String, olderThan limit: Duration) {
    let descriptor = open(path(of: name), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    if Self.age(of: descriptor) > limit, flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
      unlink(path(of: name))
    }
  }

  /// Renews the held ticket's time stamp until it is released.
  private func startRenewal() {
    state.withLock { state in
      guard state.renewal == nil, state.ticket != nil else { return }
      state.renewal = Task { [weak self] in
        while (try? await Task.sleep(for: Self.renewalInterval)) != nil {
          self?.renew()
        }
      }
    }
  }

  /// Sets the held ticket's time stamp to now.
  private func renew() {
    state.withLock { state in
      if let ticket = state.ticket { _ = futimens(ticket.descriptor, nil) }
    }
  }

  private func path(of name: String) -> String { directory + "/" + name }

  // MARK: Helpers

  /// How long ago the file was last modified.
  private static func age(of descriptor: Int32) -> Duration {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .zero }
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return .seconds(now.tv_sec - status.st_mtim.tv_sec)
      + .nanoseconds(now.tv_nsec - status.st_mtim.tv_nsec)
  }

  /// Makes `path` a directory only we can use, or checks that it is one; `nil` when it is.
  static func privateDirectoryProblem(_ path: String) -> TurnsUnavailable.Problem? {
    if mkdir(path, 0o700) != 0 && errno != EEXIST { return .cannotMake(errno: errno) }
    var status = stat()
    guard lstat(path, &status) == 0 else { return .cannotMake(errno: errno) }
    guard (status.st_mode & S_IFMT) == S_IFDIR else { return .notADirectory }
    guard status.st_uid == getuid() else { return .ownedBy(uid: status.st_uid) }
    guard (status.st_mode & 0o077) == 0 else { return .openToOthers(mode: status.st_mode & 0o777) }
    return nil
  }

  /// A short, stable name for `text`: 64-bit FNV-1a in hexadecimal.
  static func fingerprint(of text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return padded(hash, to: 16, radix: 16)
  }

  private static func padded(_ value: UInt64, to width: Int, radix: Int = 10) -> String {
    let digits = String(value, radix: radix)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// Why announce processes cannot take turns: the directory of their tickets is unusable.
public struct TurnsUnavailable: Error, Equatable {
  /// What is wrong with the directory.
  package enum Problem: Equatable, Sendable {
    /// It could not be made (or examined); the `errno` of the failure.
    case cannotMake(errno: Int32)
    /// Something else than a directory has its name.
    case notADirectory
    /// Another user owns it: it may have been made first to disturb ours.
    case ownedBy(uid: uid_t)
    /// Others may read or write it.
    case openToOthers(mode: mode_t)
  }

  /// The directory at fault.
  package let directory: String
  /// What is wrong with it.
  package let problem: Problem

  /// One sentence for standard error, naming the cause and the fix.
  public var message: String {
    let cause: String
    let fix: String
    switch problem {
    case .cannotMake(let errno):
      cause = "\(directory) cannot be made (\(String(cString: strerror(errno))))"
      fix = "make its parent writable or set XDG_RUNTIME_DIR to a private directory"
    case .notADirectory:
      cause = "\(directory) is not a directory"
      fix = "remove it or set XDG_RUNTIME_DIR to a private directory"
    case .ownedBy(let uid):
      cause = "\(directory) belongs to another user (uid \(uid))"
      fix = "have it removed or set XDG_RUNTIME_DIR to a private directory"
    case .openToOthers(let mode):
      cause = "others can use \(directory) (mode \(String(mode, radix: 8)))"
      fix = "run chmod 700 on it"
    }
    return "Taking turns with other announce processes is off because \(cause); \(fix)."
  }
}
