import Foundation

/// A key on the virtual display, sent to brltty as the name of its command.
enum BrailleKey: Sendable, Equatable {
  /// The routing key over a cell. brltty passes `n` on as the ROUTE command's argument,
  /// which counts cells from 0, so `.route(3)` is over the fourth cell. `n` must be 1 or
  /// more: the Virtual driver refuses `route 0` (it checks `number > 0`).
  case route(Int)
  /// Pan forward and back (the display's panning keys).
  case fwinrt, fwinlt
  /// A line up and down.
  case lnup, lndn
  /// Any other brltty command, by its name (`home`, `top`, `bot`, ...).
  case command(String)

  /// The line the Virtual driver reads.
  var line: String {
    switch self {
    case .route(let cell): "route \(cell)"
    case .fwinrt: "fwinrt"
    case .fwinlt: "fwinlt"
    case .lnup: "lnup"
    case .lndn: "lndn"
    case .command(let name): name
    }
  }
}

/// The display end of brltty's Virtual braille driver (`vr`), as a braille display with
/// `cells` cells: it connects to the stack's `vr.sock`, says how many cells it has, keeps
/// a timeline of every text brltty shows on it, and sends key presses back.
///
/// brltty sends `Visual "<text>"` each time the text changes, padded with spaces to the
/// width, in UTF-8, with `\` and `"` escaped by a backslash (Drivers/Braille/Virtual,
/// brl_writeWindow); the `Braille "..."` lines with the dots are not kept. Tests wait for
/// what they expect on a condition that each new text signals, never by sleeping.
///
/// brltty serves one display at a time: once one is connected its `vr.sock` is gone until
/// that display closes, and then brltty restarts its driver and listens again.
final class VirtualBrailleDisplay: @unchecked Sendable {
  /// One text the display showed, from `time` until the next frame.
  struct Frame: Sendable, Equatable {
    /// The text without the padding after it.
    var text: String
    /// The text as brltty sent it, padded to the width.
    var padded: String
    var time: ContinuousClock.Instant
  }

  struct DisplayError: Error, CustomStringConvertible {
    var description: String
  }

  /// How many cells the display said it has.
  let cells: Int
  private let socket: Int32
  // Guards everything below; the reader thread broadcasts on it for each frame and at
  // the end of the connection. (@unchecked Sendable: all state is behind this condition.)
  private let condition = NSCondition()
  private var frames: [Frame] = []
  private var connected = true
  private var closing = false

  /// Connects to the Virtual driver's socket `path`, retrying until it listens, says
  /// `cells N`, and returns once brltty has shown its first text on the display.
  init(socket path: String, cells: Int = 40, timeout: Duration = .seconds(5)) throws {
    self.cells = cells
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var connectedSocket: Int32 = -1
    while connectedSocket < 0 {
      connectedSocket = Self.connect(to: path)
      if connectedSocket >= 0 { break }
      guard clock.now < deadline else {
        throw DisplayError(description: "brltty did not accept a display on \(path) within \(timeout)")
      }
      // brltty's socket appears when its driver starts, and again after a display has
      // closed: nothing to wait on but the file, so look again shortly.
      Thread.sleep(forTimeInterval: 0.01)
    }
    socket = connectedSocket
    startReader()
    try send("cells \(cells)")
    guard waitForFrame(timeout: deadline - clock.now, where: { _ in true }) != nil else {
      close()
      throw DisplayError(description: "brltty showed nothing on the display within \(timeout)")
    }
  }

  /// Connects to the `vr.sock` of a stack's brltty.
  convenience init(stack: BrailleStack, cells: Int = 40, timeout: Duration = .seconds(5)) throws {
    try self.init(socket: stack.displaySocket, cells: cells, timeout: timeout)
  }

  deinit { close() }

  private static func connect(to path: String) -> Int32 {
    let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return -1 }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      Glibc.close(descriptor)
      return -1
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
    }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard status == 0 else {
      Glibc.close(descriptor)
      return -1
    }
    return descriptor
  }

  private func startReader() {
    let thread = Thread { [socket] in
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(socket, &buffer, buffer.count)
        if count <= 0 { break }
        pending += buffer[0..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: pending[..<newline], as: UTF8.self)
          pending.removeSubrange(...newline)
          if let padded = Self.visualText(line) { self.append(padded) }
        }
      }
      self.condition.lock()
      self.connected = false
      self.condition.broadcast()
      self.condition.unlock()
      Glibc.close(socket)
    }
    thread.start()
  }

  private func append(_ padded: String) {
    var text = Substring(padded)
    while text.last == " " { text.removeLast() }
    let frame = Frame(text: String(text), padded: padded, time: .now)
    condition.lock()
    frames.append(frame)
    condition.broadcast()
    condition.unlock()
  }

  /// The text of a `Visual "..."` line, unescaped; nil for any other line.
  static func visualText(_ line: String) -> String? {
    var line = Substring(line)
    if line.last == "\r" { line.removeLast() }
    let prefix = "Visual \""
    guard line.hasPrefix(prefix), line.count > prefix.count, line.last == "\"" else { return nil }
    var text = ""
    var escaped = false
    for character in line.dropFirst(prefix.count).dropLast() {
      if escaped || character != "\\" {
        text.append(character)
        escaped = false
      } else {
        escaped = true
      }
    }
    return text
  }

  /// Every text shown since the display connected, oldest first.
  var timeline: [Frame] {
    condition.lock()
    defer { condition.unlock() }
    return frames
  }

  /// What the display shows now, without its padding.
  var text: String {
    condition.lock()
    defer { condition.unlock() }
    return frames.last?.text ?? ""
  }

  /// Whether brltty still holds the connection.
  var isConnected: Bool {
    condition.lock()
    defer { condition.unlock() }
    return connected
  }

  /// The first frame that `predicate` accepts among the frame shown at `since` and every
  /// later one (with no `since`, the frame shown now and later ones), waiting for new
  /// frames up to `timeout`; nil if none came.
  @discardableResult
  func waitForFrame(
    since: ContinuousClock.Instant? = nil, timeout: Duration = .seconds(5),
    where predicate: (Frame) -> Bool
  ) -> Frame? {
    let deadline = Date().addingTimeInterval(Self.seconds(timeout))
    condition.lock()
    defer { condition.unlock() }
    var next = max(0, frames.count - 1)
    if let since {
      next = (frames.lastIndex { $0.time <= since }) ?? 0
    }
    while true {
      while next < frames.count {
        if predicate(frames[next]) { return frames[next] }
        next += 1
      }
      guard connected, condition.wait(until: deadline) || next < frames.count else { return nil }
    }
  }

  /// Waits until the display shows text that contains `text`; the frame, or nil on timeout.
  @discardableResult
  func waitUntilShown(
    _ text: String, since: ContinuousClock.Instant? = nil, timeout: Duration = .seconds(5)
  ) -> Frame? {
    waitForFrame(since: since, timeout: timeout) { $0.text.contains(text) }
  }

  /// Waits until the display shows text that does not contain `text`; the frame, or nil
  /// on timeout.
  @discardableResult
  func waitUntilGone(
    _ text: String, since: ContinuousClock.Instant? = nil, timeout: Duration = .seconds(5)
  ) -> Frame? {
    waitForFrame(since: since, timeout: timeout) { !$0.text.contains(text) }
  }

  /// ``waitForFrame(since:timeout:where:)`` on a thread of its own, for async tests: the
  /// blocking wait must not hold one of Swift's cooperative threads, of which a 2-core
  /// machine has two. With one held here and the other by a test running beside it, the
  /// flasher under test could not run, and its text never reached the display (seen in
  /// full runs, never alone).
  func waitForFrame(
    since: ContinuousClock.Instant? = nil, timeout: Duration = .seconds(5),
    where predicate: @escaping @Sendable (Frame) -> Bool
  ) async -> Frame? {
    await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(returning: self.waitForFrame(since: since, timeout: timeout, where: predicate))
      }
      .start()
    }
  }

  /// ``waitUntilShown(_:since:timeout:)`` without holding a cooperative thread.
  @discardableResult
  func waitUntilShown(
    _ text: String, since: ContinuousClock.Instant? = nil, timeout: Duration = .seconds(5)
  ) async -> Frame? {
    await waitForFrame(since: since, timeout: timeout) { @Sendable in $0.text.contains(text) }
  }

  /// ``waitUntilGone(_:since:timeout:)`` without holding a cooperative thread.
  @discardableResult
  func waitUntilGone(
    _ text: String, since: ContinuousClock.Instant? = nil, timeout: Duration = .seconds(5)
  ) async -> Frame? {
    await waitForFrame(since: since, timeout: timeout) { @Sendable in !$0.text.contains(text) }
  }

  /// Presses `key`. brltty gives it to the client that accepts it, or acts on it itself.
  ///
  /// Press one key at a time and wait for its effect before the next: the Virtual driver
  /// (6.5 and 6.7) reads one line each time its socket becomes readable, so keys sent
  /// together are taken one per later write, or lost.
  func press(_ key: BrailleKey) throws {
    if case .route(let cell) = key, cell < 1 {
      throw DisplayError(description: "route \(cell): the Virtual driver refuses routing keys below 1")
    }
    try send(key.line)
  }

  private func send(_ line: String) throws {
    condition.lock()
    let open = connected && !closing
    condition.unlock()
    guard open else { throw DisplayError(description: "the display is not connected to brltty") }
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard written > 0 else {
        throw DisplayError(description: "brltty closed the display's connection")
      }
      offset += written
    }
  }

  /// Disconnects the display; brltty then waits for a new one.
  func close() {
    condition.lock()
    let first = !closing
    closing = true
    condition.unlock()
    if first { shutdown(socket, Int32(SHUT_RDWR)) }
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
