import Foundation

/// A BrlAPI client of a test's brltty, run as `Tests/Support/brlapi-client` (python3-brlapi
/// over this machine's libbrlapi, as announce uses it) and driven line by line: a stand-in
/// for a screen reader that holds the display the way Orca does, or for a second program
/// that flashes a message on it.
///
/// As a ``Role/screenReader`` it enters tty mode with no path of its own, stays at the
/// default priority 50, accepts the keys Orca accepts (panning, lines, routing), and
/// writes only when told, as Orca writes only when something changes. Every key it gets
/// is kept, with the time it came.
final class BrlAPIClient: @unchecked Sendable {
  enum Role: Sendable {
    /// Orca's key set, priority 50.
    case screenReader
    /// Every command key, priority 50 until ``setPriority(_:)``.
    case program
  }

  /// A key brltty gave this client: the command's name in lower case (`route`, `fwinrt`,
  /// `lnup`, ...) and its argument (the cell, from 0, for `route`).
  struct Key: Sendable, Equatable {
    var command: String
    var argument: Int
    var time: ContinuousClock.Instant

    static func == (left: Key, right: Key) -> Bool {
      left.command == right.command && left.argument == right.argument
    }
  }

  struct ClientError: Error, CustomStringConvertible {
    var description: String
  }

  static let program = TestStack.packageRoot.appendingPathComponent("Tests/Support/brlapi-client").path

  /// The display's width as libbrlapi reported it when the client connected.
  private(set) var columns = 0
  private let pid: pid_t
  private let input: Int32
  // Guards everything below; the reader thread broadcasts on it for each line the client
  // prints. (@unchecked Sendable: all mutable state is behind this condition.)
  private let condition = NSCondition()
  private var receivedKeys: [Key] = []
  private var replies: [Int: String?] = [:]  // id: nil when done, the message on failure
  private var ready = false
  private var failure: String?
  private var running = true
  private var nextID = 1
  private var closed = false

  /// Starts the client with `environment` (a ``BrailleStack/clientEnvironment(_:session:)``)
  /// and returns once it has entered tty mode.
  init(environment: [String: String], role: Role = .screenReader, timeout: Duration = .seconds(10)) throws {
    var inPipe: [Int32] = [0, 0]
    var outPipe: [Int32] = [0, 0]
    guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else {
      throw ClientError(description: "pipe failed")
    }
    // Not inherited by other children (a second client would hold this one's input open).
    for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    let spawn = ChildSignals()
    let arguments = [Self.program] + (role == .screenReader ? ["--screen-reader"] : [])
    let argv = arguments.map { strdup($0) } + [nil]
    let environmentList = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in environmentList { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, Self.program, &actions, &spawn.attributes, argv, environmentList)
    Glibc.close(inPipe[0])
    Glibc.close(outPipe[1])
    guard status == 0 else {
      Glibc.close(inPipe[1])
      Glibc.close(outPipe[0])
      throw ClientError(description: "could not start \(Self.program): \(String(cString: strerror(status)))")
    }
    self.pid = pid
    input = inPipe[1]
    startReader(outPipe[0])
    let deadline = Date().addingTimeInterval(VirtualBrailleDisplay.seconds(timeout))
    condition.lock()
    while !ready && failure == nil && running && condition.wait(until: deadline) {}
    let outcome = (ready, failure)
    condition.unlock()
    guard outcome.0 else {
      close()
      throw ClientError(
        description: "the BrlAPI client did not enter tty mode: \(outcome.1 ?? "no answer within \(timeout)")"
      )
    }
  }

  deinit { close() }

  private func startReader(_ output: Int32) {
    let thread = Thread {
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(output, &buffer, buffer.count)
        if count <= 0 { break }
        pending += buffer[0..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          let line = Data(pending[..<newline])
          pending.removeSubrange(...newline)
          self.handle(line)
        }
      }
      Glibc.close(output)
      self.condition.lock()
      self.running = false
      self.condition.broadcast()
      self.condition.unlock()
    }
    thread.start()
  }

  private func handle(_ line: Data) {
    guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { return }
    let now = ContinuousClock.now
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    switch event["event"] as? String {
    case "ready":
      columns = event["columns"] as? Int ?? 0
      ready = true
    case "key":
      receivedKeys.append(
        Key(command: event["command"] as? String ?? "", argument: event["argument"] as? Int ?? 0, time: now))
    case "ok":
      if let id = event["id"] as? Int { replies[id] = .some(nil) }
    case "error":
      let message = event["message"] as? String ?? "failed"
      if let id = event["id"] as? Int, id != 0 { replies[id] = .some(message) } else { failure = message }
    case "closed":
      failure = "brltty closed the connection: \(event["message"] as? String ?? "")"
    default:
      break
    }
  }

  private func perform(_ request: [String: Any], timeout: Duration = .seconds(10)) throws {
    condition.lock()
    let id = nextID
    nextID += 1
    let isClosed = closed
    condition.unlock()
    guard !isClosed else { throw ClientError(description: "the BrlAPI client was closed") }
    var request = request
    request["id"] = id
    var line = try JSONSerialization.data(withJSONObject: request)
    line.append(UInt8(ascii: "\n"))
    let written = line.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
    guard written == line.count else {
      throw ClientError(description: "the BrlAPI client is gone")
    }
    let deadline = Date().addingTimeInterval(VirtualBrailleDisplay.seconds(timeout))
    condition.lock()
    defer { condition.unlock() }
    while replies[id] == nil {
      guard running, condition.wait(until: deadline) || replies[id] != nil else {
        throw ClientError(description: "the BrlAPI client did not answer \(request)")
      }
    }
    if case .some(.some(let message)) = replies[id] {
      throw ClientError(description: "\(request["command"] ?? "?"): \(message)")
    }
  }

  /// Writes `text` on the display (`brlapi_writeText`, no cursor), and returns when
  /// brltty has taken it.
  func write(_ text: String) throws { try perform(["command": "write", "text": text]) }

  /// Sets the client's priority (`BRLAPI_PARAM_CLIENT_PRIORITY`, 0 to 100, 50 by default).
  func setPriority(_ value: Int) throws { try perform(["command": "priority", "value": value]) }

  /// Gives the display back in the order of the notes: priority 0, an empty text, then
  /// out of tty mode.
  func release() throws { try perform(["command": "release"]) }

  /// Leaves tty mode, and nothing else.
  func leaveTtyMode() throws { try perform(["command": "leave"]) }

  /// Enters tty mode again, with no path of its own.
  func enterTtyMode() throws { try perform(["command": "enter"]) }

  /// Every key the client got, oldest first.
  var keys: [Key] {
    condition.lock()
    defer { condition.unlock() }
    return receivedKeys
  }

  /// Waits for a key `predicate` accepts among those that came after the first `after`
  /// ones, up to `timeout`; nil if none came.
  @discardableResult
  func waitForKey(
    after count: Int = 0, timeout: Duration = .seconds(5), where predicate: (Key) -> Bool = { _ in true }
  ) -> Key? {
    let deadline = Date().addingTimeInterval(VirtualBrailleDisplay.seconds(timeout))
    condition.lock()
    defer { condition.unlock() }
    var next = count
    while true {
      while next < receivedKeys.count {
        if predicate(receivedKeys[next]) { return receivedKeys[next] }
        next += 1
      }
      guard running, condition.wait(until: deadline) || next < receivedKeys.count else { return nil }
    }
  }

  /// Whether brltty closed the connection under the client.
  var lostConnection: Bool {
    condition.lock()
    defer { condition.unlock() }
    return failure != nil && ready
  }

  /// Closes the connection (end of input) and waits for the client to exit; it is killed
  /// if it has not within 5 s.
  func close() {
    condition.lock()
    let first = !closed
    closed = true
    condition.unlock()
    guard first else { return }
    Glibc.close(input)
    // Its output ends when it exits.
    let deadline = Date().addingTimeInterval(5)
    condition.lock()
    while running && condition.wait(until: deadline) {}
    let stillRunning = running
    condition.unlock()
    if stillRunning { kill(pid, SIGKILL) }
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
  }
}
