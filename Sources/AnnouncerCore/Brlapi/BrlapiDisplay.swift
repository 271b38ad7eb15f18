import CBrlapi
import Glibc
import Synchronization

/// A braille display reached through brltty's BrlAPI: the only type that talks to libbrlapi.
///
/// It only turns calls into BrlAPI requests and key presses into inputs; the decisions
/// are ``BrailleFlashStateMachine``'s. Every libbrlapi call runs on one thread of its
/// own, which owns the connection:
/// - between requests it sleeps in `poll` on the connection and on a wake-up
///   pipe, and reads the keys that arrive with `brlapi__readKeyWithTimeout(0)`,
///   so a key reaches the flasher, and a request brltty, without a polling delay;
/// - SIGPIPE is blocked on that thread, so writing to a brltty that went away fails
///   with EPIPE (seen as a lost display) instead of killing the process;
/// - libbrlapi's default exception handler prints and calls `abort()`; ours does
///   nothing, and the failed call says the display is lost.
///
/// It connects with the environment's `BRLAPI_HOST` and `BRLAPI_AUTH`, and enters tty
/// mode with `brlapi__enterTtyModeWithPath` and no path, so libbrlapi takes the tty from
/// the session (`WINDOWPATH`, else `XDG_VTNR`) as Orca does: announce never guesses one.
package final class BrlapiDisplay: BrailleDisplay {
  package let address: String
  package let inputs: AsyncStream<BrailleDisplayInput>
  private let worker: BrlapiWorker

  private init(address: String, worker: BrlapiWorker, inputs: AsyncStream<BrailleDisplayInput>) {
    self.address = address
    self.worker = worker
    self.inputs = inputs
  }

  /// Connects to brltty at the environment's `BRLAPI_HOST` (`:0`, the local brltty, when
  /// unset) with its `BRLAPI_AUTH`, and checks that a display is there.
  ///
  /// Fails when libbrlapi is not installed, brltty does not answer within `bound`,
  /// refuses the connection, or has no display.
  package static func connect(
    environment: [String: String], waitingAtMost bound: Duration = .seconds(2)
  ) async -> Result<BrlapiDisplay, BrailleUnavailable> {
    let host = environment["BRLAPI_HOST"].flatMap { $0.isEmpty ? nil : $0 }
    let address = "BrlAPI host \(host ?? ":0")"
    guard let library = Libbrlapi.shared else {
      return .failure(.libraryMissing(fileName: Libbrlapi.fileName))
    }
    let (stream, continuation) = AsyncStream.makeStream(of: BrailleDisplayInput.self)
    let worker = BrlapiWorker(
      library: library, host: host, auth: environment["BRLAPI_AUTH"], address: address,
      inputs: continuation)
    guard worker.start() else {
      return .failure(.noThread)
    }
    let opened =
      await Race.within(bound) { await worker.perform(.open) }
      ?? .failure(BrailleUnavailable.notAnswering(address: address))
    switch opened {
    case .success:
      return .success(BrlapiDisplay(address: address, worker: worker, inputs: stream))
    case .failure(let error):
      worker.send(.close, then: { _ in })
      return .failure(error)
    }
  }

  package func enterTtyMode() async -> Result<Int, BrailleUnavailable> {
    await worker.perform(.enter)
  }

  package func setPriority(_ priority: UInt32) async {
    _ = await worker.perform(.setPriority(priority))
  }

  package func write(_ text: String) async {
    _ = await worker.perform(.write(text))
  }

  package func leaveTtyMode() async {
    _ = await worker.perform(.leave)
  }

  package func close() async {
    _ = await worker.perform(.close)
  }
}

/// The thread that owns one BrlAPI connection and makes every libbrlapi call on it.
private final class BrlapiWorker: @unchecked Sendable {
  enum Request: Sendable {
    case open
    case enter
    case setPriority(UInt32)
    case write(String)
    case leave
    case close
  }

  typealias Answer = Result<Int, BrailleUnavailable>

  private let library: Libbrlapi
  private let host: String?
  private let auth: String?
  private let address: String
  private let inputs: AsyncStream<BrailleDisplayInput>.Continuation
  /// A pipe that wakes the thread from `poll`: read end, write end.
  private let wake: (read: Int32, write: Int32)
  private let queue = Mutex<[(Request, @Sendable (Answer) -> Void)]>([])

  // Owned by the worker thread alone.
  private var handle: UnsafeMutableRawPointer?
  private var descriptor: Int32 = -1
  private var inTtyMode = false
  private var cells = 0
  private var closed = false

  init(
    library: Libbrlapi, host: String?, auth: String?, address: String,
    inputs: AsyncStream<BrailleDisplayInput>.Continuation
  ) {
    self.library = library
    self.host = host
    self.auth = auth
    self.address = address
    self.inputs = inputs
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
      _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
    }
    wake = (ends[0], ends[1])
  }

  func start() -> Bool {
    guard wake.read >= 0 else { return false }
    return SystemThread.start(stackSize: 256 * 1024) { [self] in run() }
  }

  /// Sends `request` to the thread and waits for its answer.
  func perform(_ request: Request) async -> Answer {
    await withCheckedContinuation { continuation in
      send(request) { continuation.resume(returning: $0) }
    }
  }

  func send(_ request: Request, then answer: @escaping @Sendable (Answer) -> Void) {
    queue.withLock { $0.append((request, answer)) }
    var one: UInt8 = 1
    _ = Glibc.write(wake.write, &one, 1)
  }

  // MARK: The thread

  private func run() {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    while !closed {
      let requests = queue.withLock { queue in
        defer { queue = [] }
        return queue
      }
      for (request, answer) in requests { answer(closed ? .success(0) : carryOut(request)) }
      if closed { break }
      readKeys()
      var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
      if inTtyMode, descriptor >= 0 { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
      if poll(&fds, nfds_t(fds.count), -1) < 0, errno != EINTR { break }
      if fds[0].revents != 0 {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &drained, drained.count) > 0 {}
      }
    }
    close(wake.read)
    close(wake.write)
    inputs.finish()
  }

  private func carryOut(_ request: Request) -> Answer {
    switch request {
    case .open:
      return connect().map { 0 }
    case .enter:
      if handle == nil, case .failure(let error) = connect() { return .failure(error) }
      guard let handle else { return .failure(.connectionLost(address: address)) }
      guard library.enterTtyModeWithPath(handle, nil, 0, nil) >= 0 else {
        let reason = library.lastError()
        lose(report: false)
        return .failure(.cannotAttach(address: address, reason: reason))
      }
      var width: UInt32 = 0
      var height: UInt32 = 0
      guard library.getDisplaySize(handle, &width, &height) >= 0, width * max(height, 1) > 0 else {
        _ = library.leaveTtyMode(handle)
        return .failure(.noDisplay(address: address))
      }
      inTtyMode = true
      cells = Int(width * max(height, 1))
      return .success(cells)
    case .setPriority(var priority):
      guard let handle else { return .success(0) }
      // BRLAPI_PARAM_CLIENT_PRIORITY, subparameter 0, BRLAPI_PARAMF_LOCAL.
      if library.setParameter(handle, 1, 0, 0, &priority, 4) < 0 { lose(report: true) }
      return .success(0)
    case .write(let text):
      guard let handle, inTtyMode else { return .success(0) }
      if show(text, on: handle) < 0 { lose(report: true) }
      return .success(0)
    case .leave:
      guard let handle, inTtyMode else { return .success(0) }
      inTtyMode = false
      if library.leaveTtyMode(handle) < 0 { lose(report: true) }
      return .success(0)
    case .close:
      if let handle {
        library.closeConnection(handle)
        free(handle)
      }
      handle = nil
      closed = true
      return .success(0)
    }
  }

  private func connect() -> Result<Void, BrailleUnavailable> {
    guard let memory = malloc(library.getHandleSize()) else {
      return .failure(.noMemory(address: address))
    }
    let descriptor = withOptionalCString(host) { host in
      withOptionalCString(auth) { auth in
        var settings = brlapi_connectionSettings_t(auth: auth, host: host)
        return library.openConnection(memory, &settings, nil)
      }
    }
    guard descriptor >= 0 else {
      let reason = library.lastError()
      free(memory)
      return .failure(.unreachable(address: address, reason: reason))
    }
    _ = library.setExceptionHandler(memory) { _, _, _, _, _ in
      // The call that met the exception fails, and that is reported as a lost display.
    }
    handle = memory
    self.descriptor = descriptor
    return .success(())
  }

  /// Writes `text` on the whole display, padded with blanks, in UTF-8, cursor off.
  private func show(_ text: String, on handle: UnsafeMutableRawPointer) -> Int32 {
    var scalars = Array(text.unicodeScalars.prefix(cells))
    scalars += Array(repeating: " ", count: cells - scalars.count)
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    let line = String(view)
    return line.withCString { bytes in
      "UTF-8".withCString { charset in
        var arguments = brlapi_writeArguments_t(
          displayNumber: -1, regionBegin: 1, regionSize: Int32(cells), text: bytes,
          textSize: Int32(line.utf8.count), andMask: nil, orMask: nil, cursor: 0, charset: charset)
        return library.write(handle, &arguments)
      }
    }
  }

  /// Hands on every key that has arrived; a broken connection is reported as lost.
  private func readKeys() {
    guard inTtyMode, let handle else { return }
    while true {
      var code: UInt64 = 0
      let result = library.readKeyWithTimeout(handle, 0, &code)
      if result == 1 {
        if let key = BrlapiKeyCode.key(code, described: library.describe(code)) { inputs.yield(.key(key)) }
        continue
      }
      // BRLAPI_ERROR_LIBCERR (11) with EINTR: a signal or parameter notice, not a failure.
      if result < 0, !(library.lastErrorNumber() == 11 && library.errorLocation()?.pointee.libcerrno == EINTR)
      {
        lose(report: true)
      }
      return
    }
  }

  /// Drops a broken connection; the next `enter` connects again.
  private func lose(report: Bool) {
    if let handle {
      library.closeConnection(handle)
      free(handle)
    }
    handle = nil
    descriptor = -1
    let wasInTtyMode = inTtyMode
    inTtyMode = false
    if report && wasInTtyMode { inputs.yield(.lost) }
  }
}

private func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
  guard let string else { return body(nil) }
  return string.withCString(body)
}
