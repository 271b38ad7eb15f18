import AnnouncerCore
import Foundation
import Synchronization
import Testing

/// A private brltty with its Virtual driver, the display at the other end of its socket,
/// and a stand-in screen reader that holds the display the way Orca does.
///
/// brltty writes nothing outside its own temporary directory and `/var/lib/BrlAPI/NAME`;
/// every test has its own NAME.
final class PrivateBrltty: Sendable {
  let name: String
  let directory: String
  private let brltty: Running
  private let display: Int32
  private let visual = Mutex<[String]>([])
  /// The screen reader stand-in, once started.
  private let screenReader = Mutex<Running?>(nil)

  init(cells: Int = 40) throws {
    name = "announce-braille-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    brltty = try Running(
      "/usr/sbin/brltty",
      [
        "-n", "-e", "-q", "-l", "info", "-f", "/dev/null", "-F", directory + "/prefs", "-U", directory,
        "-W", directory, "-P", directory + "/pid", "-b", "vr", "-d", "server:" + directory + "/vr.sock",
        "-t", "en-nabcc", "-x", "no", "-s", "no", "-A", "auth=none,host=:" + name,
      ])
    display = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    let path = directory + "/vr.sock"
    guard Self.waitFor({ FileManager.default.fileExists(atPath: path) }) else {
      throw SpawnError(description: "brltty made no vr.sock")
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
    }
    // The socket's file appears just before brltty listens on it.
    let peer = display
    let connected = Self.waitFor {
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(peer, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
        }
      }
    }
    guard connected else { throw SpawnError(description: "cannot reach vr.sock") }
    send("cells \(cells)")
    Thread.detachNewThread { [weak self] in
      var pending = [UInt8]()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(peer, &buffer, buffer.count)
        if count <= 0 { return }
        pending += buffer[..<count]
        while let end = pending.firstIndex(of: 10) {
          let line = String(decoding: pending[..<end], as: UTF8.self)
          pending.removeSubrange(...end)
          if line.hasPrefix("Visual \"") { self?.record(Self.unquoted(line.dropFirst(7))) }
        }
      }
    }
    guard Self.waitFor({ FileManager.default.fileExists(atPath: "/var/lib/BrlAPI/" + self.name) })
    else { throw SpawnError(description: "brltty made no BrlAPI socket") }
    // Until brltty has taken the display (its first line, "no screen"), BrlAPI says it has
    // 0 cells, which is a brltty with no display.
    guard Self.waitFor({ !self.shown.isEmpty }) else {
      throw SpawnError(description: "brltty showed nothing on the display")
    }
  }

  deinit {
    screenReader.withLock { $0?.send(SIGKILL) }
    brltty.send(SIGKILL)
    close(display)
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// BRLAPI_HOST and BRLAPI_AUTH for this brltty, and the session's window path, tty 7.
  var environment: [String: String] {
    ["BRLAPI_HOST": ":" + name, "BRLAPI_AUTH": "none", "WINDOWPATH": "7"]
  }

  /// Sends `signal` to brltty, such as SIGSTOP to freeze it.
  func signal(_ signal: Int32) { brltty.send(signal) }

  /// Presses a key on the display: a brltty command name such as `route 3` or `fwinrt`.
  func press(_ command: String) { send(command) }

  /// Starts a screen reader stand-in on tty 7 at priority 50 that shows `line`, and then
  /// each line written to it with ``screenReaderWrites(_:)``, as Orca writes only when
  /// something changes.
  func startScreenReader(showing line: String) throws {
    let script = """
      import brlapi, sys
      b = brlapi.Connection()
      b.enterTtyModeWithPath()
      b.writeText(sys.argv[1])
      print("ready", flush=True)
      for line in sys.stdin:
          b.writeText(line.strip())
          print("wrote", line.strip(), flush=True)
      """
    let running = try Running(
      "/usr/bin/python3", ["-c", script, line],
      environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
      keepStandardInputOpen: true)
    screenReader.withLock { $0 = running }
    #expect(waitUntilShown(line))
  }

  /// Has the screen reader stand-in write `line`, and returns once it has.
  func screenReaderWrites(_ line: String) {
    screenReader.withLock { running in
      running?.write(line + "\n")
      #expect(running?.waitForOutput(containing: "wrote " + line) == true)
    }
  }

  /// Everything the display showed, in order, without the padding.
  var shown: [String] { visual.withLock { $0 } }

  /// Whether the display shows `text` within `seconds`.
  @discardableResult
  func waitUntilShown(_ text: String, within seconds: Double = 5) -> Bool {
    Self.waitFor(seconds: seconds) { self.visual.withLock { $0.last == text } }
  }

  private func record(_ text: String) {
    visual.withLock { $0.append(text) }
  }

  private func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(display, $0.baseAddress, $0.count) }
  }

  private static func unquoted(_ quoted: Substring) -> String {
    var text = ""
    var escaped = false
    for character in quoted.dropFirst().dropLast() {
      if escaped || character != "\\" {
        text.append(character)
        escaped = false
      } else {
        escaped = true
      }
    }
    while text.last == " " { text.removeLast() }
    return text
  }

  private static func waitFor(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if condition() { return true }
      usleep(5_000)
    }
    return condition()
  }
}

/// The BrlAPI client and the flasher against the real brltty and its Virtual driver.
@Suite(.serialized) struct BrailleDisplayTests {
  /// 1,000 words a minute (100 cells a second) and a short flash, so that tests are quick.
  let timing = BrailleTiming(
    wordsPerMinute: 1000, minimumFlash: .milliseconds(300), shortestWindow: .milliseconds(300))

  init() {
    // libbrlapi takes the tty from the process's own environment, as in a session.
    setenv("WINDOWPATH", "7", 1)
  }

  @Test func aLongMessageAppearsIsPannedIsHeldAndTheScreenReadersLineComesBack() async throws {
    let brltty = try PrivateBrltty(cells: 40)
    try brltty.startScreenReader(showing: "screen reader line")
    let display = try await BrlapiDisplay.connect(environment: brltty.environment).get()
    let flasher = BrailleFlasher(display: display, timing: timing)
    let text = "The build of announce failed in the test stage with three errors in main.swift"
    let started = ContinuousClock.now
    let outcome = await flasher.outcome(of: flasher.show(text, withSpeech: false))
    let held = ContinuousClock.now - started
    #expect(outcome.wasDelivered)
    let windows = BrailleWindows.split(text, cells: 40)
    #expect(windows.count == 2)
    #expect(brltty.waitUntilShown("screen reader line"))
    // Every window was on the display, in order, between two screen reader lines.
    let shown = brltty.shown
    let first = try #require(shown.firstIndex(of: windows[0]))
    #expect(shown[..<first].last == "screen reader line")
    #expect(shown[first...].prefix(2).elementsEqual(windows))
    #expect(shown.last == "screen reader line")
    // Each window held for its reading time: 0.4 s and 0.38 s at 100 cells a second.
    #expect(held >= .milliseconds(700))
    await flasher.close()
  }

  @Test func aRoutingKeyAcknowledgesAndGivesTheLineBackAtOnce() async throws {
    let brltty = try PrivateBrltty()
    try brltty.startScreenReader(showing: "screen reader line")
    let display = try await BrlapiDisplay.connect(environment: brltty.environment).get()
    var slow = timing
    slow.minimumFlash = .seconds(30)
    let flasher = BrailleFlasher(display: display, timing: slow)
    let flash = flasher.show("Build failed", withSpeech: false)
    #expect(brltty.waitUntilShown("Build failed"))
    brltty.press("route 3")
    let outcome = await flasher.outcome(of: flash)
    guard case .acknowledged = outcome else {
      Issue.record("expected acknowledged, got \(outcome)")
      return
    }
    #expect(brltty.waitUntilShown("screen reader line", within: 1))
    await flasher.close()
  }

  @Test func aScreenReaderThatWritesMeanwhileGetsTheDisplayBackWithItsNewestText() async throws {
    let brltty = try PrivateBrltty()
    try brltty.startScreenReader(showing: "screen reader line")
    let display = try await BrlapiDisplay.connect(environment: brltty.environment).get()
    var slow = timing
    slow.minimumFlash = .seconds(1)
    let flasher = BrailleFlasher(display: display, timing: slow)
    let flash = flasher.show("Build failed", withSpeech: false)
    #expect(brltty.waitUntilShown("Build failed"))
    brltty.screenReaderWrites("the newest line")
    // Our priority 70 keeps the flash on the display over the screen reader's 50.
    #expect(!brltty.waitUntilShown("the newest line", within: 0.3))
    #expect(await flasher.outcome(of: flash).wasDelivered)
    #expect(brltty.waitUntilShown("the newest line", within: 1))
    await flasher.close()
  }

  @Test func cancellingForASignalGivesTheScreenReadersLineBack() async throws {
    let brltty = try PrivateBrltty()
    try brltty.startScreenReader(showing: "screen reader line")
    let display = try await BrlapiDisplay.connect(environment: brltty.environment).get()
    var slow = timing
    slow.minimumFlash = .seconds(30)
    let flasher = BrailleFlasher(display: display, timing: slow)
    let flash = flasher.show("Build failed", withSpeech: false)
    #expect(brltty.waitUntilShown("Build failed"))
    await flasher.cancelAll()
    #expect(await flasher.outcome(of: flash) == .notShown(.cancelled))
    #expect(brltty.waitUntilShown("screen reader line", within: 1))
    await flasher.close()
  }

  @Test func twoProcessesTakeTurnsOnTheDisplay() async throws {
    let brltty = try PrivateBrltty()
    try brltty.startScreenReader(showing: "screen reader line")
    let turns = FileManager.default.temporaryDirectory.appendingPathComponent(brltty.name + "-turns").path
    defer { try? FileManager.default.removeItem(atPath: turns) }
    func flasher() async throws -> BrailleFlasher {
      let display = try await BrlapiDisplay.connect(environment: brltty.environment).get()
      let shared = try #require(SharedSpeakingTurns(directory: turns, recheckInterval: .milliseconds(50)))
      return BrailleFlasher(display: display, timing: timing, turns: shared)
    }
    let first = try await flasher()
    let second = try await flasher()
    let secondEvents = second.events()
    let a = first.show("first process", withSpeech: false)
    #expect(brltty.waitUntilShown("first process"))
    let b = second.show("second process", withSpeech: false)
    for await event in secondEvents {
      #expect(event.kind == .waitingForTurn)
      break
    }
    #expect(await first.outcome(of: a).wasDelivered)
    #expect(await second.outcome(of: b).wasDelivered)
    #expect(brltty.waitUntilShown("screen reader line"))
    // The second never cut the first off: it came after it, each shown once.
    let shown = brltty.shown.filter { $0.hasSuffix("process") }
    #expect(shown == ["first process", "second process"])
    await first.close()
    await second.close()
  }

  @Test func aFrozenBrlttyNeverHangsAnnounce() async throws {
    let brltty = try PrivateBrltty()
    let display = try await BrlapiDisplay.connect(environment: brltty.environment).get()
    var slow = timing
    slow.minimumFlash = .seconds(30)
    let flasher = BrailleFlasher(display: display, timing: slow)
    let flash = flasher.show("Build failed", withSpeech: false)
    #expect(brltty.waitUntilShown("Build failed"))
    brltty.signal(SIGSTOP)
    defer { brltty.signal(SIGCONT) }
    let started = ContinuousClock.now
    await flasher.cancelAll(waitingAtMost: .milliseconds(500))
    #expect(await flasher.outcome(of: flash) == .notShown(.cancelled))
    await flasher.close(waitingAtMost: .milliseconds(500))
    // Two bounds of 0.5 s, with room for a loaded machine.
    #expect(ContinuousClock.now - started < .seconds(3))
  }

  @Test func brlttyGoingAwayMidFlashIsAClearOutcomeNotAHang() async throws {
    var brltty: PrivateBrltty? = try PrivateBrltty()
    let display = try await BrlapiDisplay.connect(environment: brltty!.environment).get()
    var slow = timing
    slow.minimumFlash = .seconds(30)
    let flasher = BrailleFlasher(display: display, timing: slow)
    let flash = flasher.show("Build failed", withSpeech: false)
    #expect(brltty!.waitUntilShown("Build failed"), "the display showed \(brltty!.shown)")
    brltty = nil
    let outcome = await flasher.outcome(of: flash)
    #expect(outcome == .notShown(.displayLost))
    await flasher.close()
  }

  @Test func noBrlttyIsAnErrorNamingTheBrlAPIHost() async {
    let host = ":announce-braille-none-\(getpid())"
    let result = await BrlapiDisplay.connect(environment: ["BRLAPI_HOST": host, "BRLAPI_AUTH": "none"])
    guard case .failure(let error) = result else {
      Issue.record("connected to a brltty that does not exist")
      return
    }
    #expect(error.failure == .unavailable)
    #expect(error.message.contains("BrlAPI host \(host)"))
    #expect(error.message.hasSuffix("."))
    #expect(!error.message.contains("\n"))
  }
}
