import AnnouncerTesting
import Foundation
import Glibc
import Testing

@testable import AnnouncerCore

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// The driver with a turn that another announcer holds, and the file-based
/// turns that announce processes share.
@Suite(.timeLimit(.minutes(1))) struct SpeakingTurnsTests {
  // MARK: The driver

  @Test func theDriverSpeaksOnlyOnceTheTurnIsGrantedAndGivesItBack() async throws {
    let backend = ScriptedBackend()
    let turns = ScriptedTurns()
    let announcer = Announcer(backend: backend, clock: ManualClock(), turns: turns)
    let events = announcer.events()
    var said = backend.said.makeAsyncIterator()
    async let outcome = announcer.announce("Saved")
    while !turns.isWaiting { await Task.yield() }
    turns.grant()
    let first = try #require(await said.next())
    #expect(first.request.text == "Saved")
    backend.emit(.began(first.id))
    backend.emit(.ended(first.id))
    #expect(await outcome.wasSpoken)
    #expect(turns.releases == 1)
    await announcer.close()
    var names: [String] = []
    for await event in events { names.append(event.kind.name) }
    #expect(names == ["queued", "waiting-for-turn", "attempt", "begin", "spoken"])
  }

  @Test func cancellingWhileWaitingForTheTurnGivesBackThePlaceAndSaysNothing() async {
    let backend = ScriptedBackend()
    let turns = ScriptedTurns()
    let announcer = Announcer(backend: backend, clock: ManualClock(), turns: turns)
    async let outcome = announcer.announce("Saved")
    while !turns.isWaiting { await Task.yield() }
    await announcer.cancelAll()
    #expect(await outcome == .gaveUp(.cancelled))
    #expect(turns.releases == 1)
    await announcer.close()
    var said: [ScriptedBackend.Said] = []
    for await request in backend.said { said.append(request) }
    #expect(said.isEmpty)
  }

  // MARK: Turns shared through files

  func makeDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "announce-turns-\(UUID().uuidString)"
    return path
  }

  @Test func oneHoldsTheTurnAndTheNextGetsItWhenItIsGivenBack() async throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let first = try #require(SharedSpeakingTurns(directory: directory))
    let second = try #require(SharedSpeakingTurns(directory: directory))
    #expect(first.tryTake())
    #expect(!second.tryTake())
    #expect(!second.tryTake())
    first.release()
    try await second.take()
    #expect(!first.tryTake())
    second.release()
    #expect(first.tryTake())
    first.release()
  }

  @Test func placesInLineAreServedInTheOrderTheyWereTaken() throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let holder = try #require(SharedSpeakingTurns(directory: directory))
    let early = try #require(SharedSpeakingTurns(directory: directory))
    let late = try #require(SharedSpeakingTurns(directory: directory))
    #expect(holder.tryTake())
    #expect(!early.tryTake())
    #expect(!late.tryTake())
    holder.release()
    #expect(!late.tryTake())
    #expect(early.tryTake())
    early.release()
    #expect(late.tryTake())
    late.release()
  }

  @Test func anAnnouncerStartedEarlierGoesFirstButNeverCutsInOnTheHolder() throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let startedEarly = SharedSpeakingTurns.wallClockNow()
    let holder = try #require(SharedSpeakingTurns(directory: directory))
    let waiting = try #require(SharedSpeakingTurns(directory: directory))
    let early = try #require(SharedSpeakingTurns(directory: directory, since: startedEarly))
    #expect(holder.tryTake())
    #expect(!waiting.tryTake())
    // Its place is dated before the holder's, yet the holder keeps the turn.
    #expect(!early.tryTake())
    holder.release()
    #expect(!waiting.tryTake())
    #expect(early.tryTake())
    early.release()
    #expect(waiting.tryTake())
    waiting.release()
  }

  @Test func aTicketLeftByAKilledProcessIsRemovedAndNeverWaitedFor() throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let turns = try #require(SharedSpeakingTurns(directory: directory))
    // Nobody holds a lock on it: its owner is gone.
    let abandoned = directory + "/00000000000000000001-0000000001-000001"
    #expect(FileManager.default.createFile(atPath: abandoned, contents: nil))
    #expect(turns.tryTake())
    #expect(!FileManager.default.fileExists(atPath: abandoned))
    turns.release()
  }

  /// Another process's held turn, faked in this one: a `held-` ticket and the lock on
  /// `turn`, each through a descriptor of its own (flock locks of two descriptors conflict).
  final class ForeignHolder {
    let ticketPath: String
    let ticket: Int32
    let turn: Int32

    init(in directory: String) {
      ticketPath = directory + "/held-00000000000000000001-0000000001-000001"
      ticket = open(ticketPath, O_CREAT | O_RDWR, 0o600)
      turn = open(directory + "/turn", O_RDWR)
      #expect(flock(ticket, LOCK_EX) == 0)
      #expect(flock(turn, LOCK_EX) == 0)
    }

    /// Dates the ticket's last renewal `seconds` ago.
    func renewed(secondsAgo seconds: Int) {
      let then = timespec(tv_sec: time(nil) - seconds, tv_nsec: 0)
      var times = [then, then]
      #expect(futimens(ticket, &times) == 0)
    }

    /// Gives the turn back as a live holder does.
    func release() {
      unlink(ticketPath)
      flock(turn, LOCK_UN)
    }

    deinit {
      close(ticket)
      close(turn)
    }
  }

  @Test func aHolderThatStoppedRenewingIsPassedOver() throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let turns = try #require(SharedSpeakingTurns(directory: directory))
    // A stopped process: it holds its ticket and the turn, but its ticket is old.
    let holder = ForeignHolder(in: directory)
    holder.renewed(secondsAgo: 60)
    #expect(turns.tryTake())
    turns.release()
  }

  @Test func aHolderThatRenewsIsWaitedFor() throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let turns = try #require(SharedSpeakingTurns(directory: directory))
    let holder = ForeignHolder(in: directory)
    #expect(!turns.tryTake())
    holder.release()
    #expect(turns.tryTake())
    turns.release()
  }

  @Test func eachAddressHasItsOwnLineInAPrivateDirectory() throws {
    let runtime = try makeDirectory()
    #expect(mkdir(runtime, 0o700) == 0)
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let environment = ["XDG_RUNTIME_DIR": runtime]
    let one = try SharedSpeakingTurns.forUser(address: "unix_socket:\(testRoot)/a", environment: environment)
      .get()
    let other = try SharedSpeakingTurns.forUser(
      address: "unix_socket:\(testRoot)/b", environment: environment
    ).get()
    #expect(one.directory != other.directory)
    #expect(one.directory.hasPrefix(runtime + "/announce/turns-"))
    #expect(one.tryTake())
    #expect(other.tryTake())
    one.release()
    other.release()
    var status = stat()
    #expect(stat(runtime + "/announce", &status) == 0)
    #expect(status.st_mode & 0o077 == 0)
  }

  @Test func aDirectoryOthersCanWriteIsRefused() throws {
    let directory = try makeDirectory()
    #expect(mkdir(directory, 0o777) == 0)
    chmod(directory, 0o777)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(SharedSpeakingTurns(directory: directory) == nil)
  }

  // MARK: Waiting

  /// Handing the turn down a line of 30 wakes one waiter at a time: each looks
  /// through the directory a few times in all, not once per poll while it waits.
  /// Waiting by polling cost O(N²): 100 processes used 36.8 CPU seconds (issue #16).
  @Test func handingTheTurnDownALineWakesOneWaiterAtATimeInOrder() async throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let start = SharedSpeakingTurns.wallClockNow()
    // No rechecks during the test: only the locks wake the waiters.
    let holder = try #require(
      SharedSpeakingTurns(directory: directory, since: start, recheckInterval: .seconds(600)))
    let line = try (1...30).map { index in
      try #require(
        SharedSpeakingTurns(
          directory: directory, since: start + UInt64(index), recheckInterval: .seconds(600)))
    }
    #expect(holder.tryTake())
    let listings = try DirectoryListings(of: directory)
    for turns in line { #expect(!turns.tryTake()) }
    let served = ServedOrder()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, turns) in line.enumerated() {
        group.addTask {
          try await turns.take()
          await served.add(index)
          turns.release()
        }
      }
      holder.release()
      try await group.waitForAll()
    }
    #expect(await served.order == Array(0..<30))
    let looks = listings.count()
    #expect(looks >= line.count && looks <= 4 * line.count, "\(looks) looks for \(line.count) waiters")
  }

  /// How often a directory is opened to be listed, as the kernel tells: inotify reports
  /// each `opendir` as an `IN_OPEN` of the directory itself.
  final class DirectoryListings {
    let descriptor: Int32

    init(of directory: String) throws {
      descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      try #require(descriptor >= 0 && inotify_add_watch(descriptor, directory, UInt32(IN_OPEN)) >= 0)
    }

    deinit { close(descriptor) }

    /// The listings since the watch began, or since the last call.
    func count() -> Int {
      var listings = 0
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while case let length = read(descriptor, &buffer, buffer.count), length > 0 {
        var offset = 0
        while offset < length {
          let (mask, nameLength) = buffer.withUnsafeBytes {
            (
              $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
              $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
            )
          }
          #expect(mask & UInt32(IN_Q_OVERFLOW) == 0, "the kernel dropped events")
          // A file opened inside the directory has a name; the directory itself has none.
          if nameLength == 0 && mask & UInt32(IN_ISDIR) != 0 { listings += 1 }
          offset += 16 + Int(nameLength)
        }
      }
      return listings
    }
  }

  actor ServedOrder {
    var order: [Int] = []
    func add(_ index: Int) { order.append(index) }
  }

  @Test func aWaiterWakesWhenTheAnnouncerAheadOfItDies() async throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let turns = try #require(SharedSpeakingTurns(directory: directory, recheckInterval: .seconds(600)))
    // A live announcer that asked first, in another process (a descriptor of its own).
    let ahead = open(directory + "/00000000000000000001-0000000001-000001", O_CREAT | O_RDWR, 0o600)
    #expect(flock(ahead, LOCK_EX) == 0)
    #expect(!turns.tryTake())
    let waiting = Task { try await turns.take() }
    // It dies: the kernel lets go of its lock, which wakes the waiter.
    close(ahead)
    try await waiting.value
    turns.release()
  }

  @Test func aWaiterPassesOverAHolderThatStopsRenewingWhileItWaits() async throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let turns = try #require(SharedSpeakingTurns(directory: directory, recheckInterval: .milliseconds(10)))
    let holder = ForeignHolder(in: directory)
    #expect(!turns.tryTake())
    let waiting = Task { try await turns.take() }
    // Control-Z: it keeps its locks but no longer renews its ticket.
    holder.renewed(secondsAgo: 60)
    try await waiting.value
    turns.release()
  }

  @Test func cancellingAWaiterGivesBackItsPlace() async throws {
    let directory = try makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let holder = try #require(SharedSpeakingTurns(directory: directory))
    let turns = try #require(SharedSpeakingTurns(directory: directory, recheckInterval: .seconds(600)))
    #expect(holder.tryTake())
    #expect(!turns.tryTake())
    let waiting = Task { try await turns.take() }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    turns.release()
    holder.release()
    #expect(holder.tryTake())
    holder.release()
  }

  // MARK: The directory

  @Test func aRuntimeDirectoryOthersCanUseTurnsCoordinationOffWithAReason() throws {
    let runtime = try makeDirectory()
    #expect(mkdir(runtime, 0o700) == 0)
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    #expect(mkdir(runtime + "/announce", 0o700) == 0)
    chmod(runtime + "/announce", 0o777)
    let result = SharedSpeakingTurns.forUser(
      address: "unix_socket:\(testRoot)/a", environment: ["XDG_RUNTIME_DIR": runtime])
    guard case .failure(let unavailable) = result else {
      Issue.record("coordination through a directory others can use")
      return
    }
    #expect(
      unavailable == TurnsUnavailable(directory: runtime + "/announce", problem: .openToOthers(mode: 0o777)))
    #expect(
      unavailable.message
        == "Taking turns with other announce processes is off because others can use \(runtime)/announce (mode 777); run chmod 700 on it."
    )
  }

  /// Another user made the directory first (only root can make one for another user here).
  @Test(.enabled(if: getuid() == 0)) func aRuntimeDirectoryOfAnotherUserTurnsCoordinationOffWithAReason()
    throws
  {
    let runtime = try makeDirectory()
    #expect(mkdir(runtime, 0o700) == 0)
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    #expect(mkdir(runtime + "/announce", 0o700) == 0)
    #expect(chown(runtime + "/announce", 65534, 65534) == 0)
    let result = SharedSpeakingTurns.forUser(
      address: "unix_socket:\(testRoot)/a", environment: ["XDG_RUNTIME_DIR": runtime])
    guard case .failure(let unavailable) = result else {
      Issue.record("coordination through another user's directory")
      return
    }
    #expect(unavailable.problem == .ownedBy(uid: 65534))
    #expect(
      unavailable.message.contains("\(runtime)/announce belongs to another user (uid 65534); have it removed")
    )
  }
}
