import AnnouncerCore
import Foundation
import Synchronization
import Testing

/// A private brltty of the release under test (teststack's `braille-start`: 6.5 for
/// `TESTSTACK_RELEASE=12`, 6.7 for 13), the Virtual display on it, and a stand-in screen
/// reader on the desktop session's tty 7, as the flash tests use them.
final class PrivateBrltty: Sendable {
  let stack: BrailleStack
  let display: VirtualBrailleDisplay
  private let screenReader = Mutex<BrlAPIClient?>(nil)

  init() throws {
    stack = try BrailleStack.start(name: "flash-\(UUID().uuidString.prefix(6))")
    do {
      display = try VirtualBrailleDisplay(stack: stack)
    } catch {
      stack.stop()
      throw error
    }
  }

  deinit {
    screenReader.withLock { $0?.close() }
    display.close()
    stack.stop()
  }

  /// BRLAPI_HOST and BRLAPI_AUTH for this brltty, in the desktop session on tty 7.
  var environment: [String: String] { stack.clientEnvironment([:]) }

  /// Presses a key on the display: a brltty command name such as `route 3` or `fwinrt`.
  func press(_ command: String) {
    #expect(throws: Never.self) { try display.press(.command(command)) }
  }

  /// Sends `signal` to brltty, such as SIGSTOP to freeze it.
  func signal(_ signal: Int32) { kill(stack.pid, signal) }

  /// Starts the screen reader stand-in (priority 50, Orca's keys) showing `line`.
  func startScreenReader(showing line: String) throws {
    let client = try BrlAPIClient(environment: stack.clientEnvironment())
    try client.write(line)
    screenReader.withLock { $0 = client }
    #expect(display.waitForFrame { $0.text == line } != nil)
  }

  /// Has the screen reader stand-in write `line`, as Orca writes when something changes.
  func screenReaderWrites(_ line: String) {
    screenReader.withLock { client in
      #expect(throws: Never.self) { try client?.write(line) }
    }
  }

  /// Everything the display showed, in order, without the padding.
  var shown: [String] { display.timeline.map(\.text) }

  /// Whether the display shows exactly `text`, now or within `seconds`, blocking the calling thread: for
  /// tests whose code under test runs in another process.
  @discardableResult
  func waitUntilShown(_ text: String, within seconds: Double = 5) -> Bool {
    display.waitForFrame(timeout: .milliseconds(Int64(seconds * 1000))) { $0.text == text } != nil
  }

  /// The same without holding a cooperative thread, for tests whose flasher runs in
  /// this process (see ``VirtualBrailleDisplay/waitForFrame(since:timeout:where:)``).
  @discardableResult
  func waitUntilShown(_ text: String, within seconds: Double = 5) async -> Bool {
    await display.waitForFrame(timeout: .milliseconds(Int64(seconds * 1000))) { @Sendable in $0.text == text }
      != nil
  }
}

extension SpeakingTests {
  /// The BrlAPI client and the flasher against the real brltty and its Virtual driver.
  @Suite struct BrailleDisplayTests {
    /// 1,000 words a minute (100 cells a second) and a short flash, so that tests are quick.
    let timing = BrailleTiming(
      wordsPerMinute: 1000, minimumFlash: .milliseconds(300), shortestWindow: .milliseconds(300))

    init() {
      // libbrlapi takes the tty from the process's own environment, as in a session.
      setenv("WINDOWPATH", "7", 1)
    }

    @Test func aLongMessageAppearsIsPannedIsHeldAndTheScreenReadersLineComesBack() async throws {
      let brltty = try PrivateBrltty()
      try brltty.startScreenReader(showing: "screen reader line")
      let display = try await BrlapiDisplay.connect(environment: brltty.environment).get()
      let flasher = BrailleFlasher(display: display, timing: timing)
      let text = "The build of announce failed in the test stage with three errors in main.swift"
      let started = ContinuousClock.now
      let outcome = await flasher.outcome(of: flasher.show(text, withSpeech: false))
      let held = ContinuousClock.now - started
      #expect(outcome?.wasDelivered == true)
      let windows = BrailleWindows.split(text, cells: 40)
      #expect(windows.count == 2)
      #expect(await brltty.waitUntilShown("screen reader line"))
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
      #expect(await brltty.waitUntilShown("Build failed"))
      brltty.press("route 3")
      let outcome = await flasher.outcome(of: flash)
      guard case .acknowledged = outcome else {
        Issue.record("expected acknowledged, got \(String(describing: outcome))")
        return
      }
      #expect(await brltty.waitUntilShown("screen reader line", within: 1))
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
      #expect(await brltty.waitUntilShown("Build failed"))
      brltty.screenReaderWrites("the newest line")
      // Our priority 70 keeps the flash on the display over the screen reader's 50.
      #expect(!(await brltty.waitUntilShown("the newest line", within: 0.3)))
      #expect(await flasher.outcome(of: flash)?.wasDelivered == true)
      #expect(await brltty.waitUntilShown("the newest line", within: 1))
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
      #expect(await brltty.waitUntilShown("Build failed"))
      await flasher.cancelAll()
      #expect(await flasher.outcome(of: flash) == .notShown(.cancelled))
      #expect(await brltty.waitUntilShown("screen reader line", within: 1))
      await flasher.close()
    }

    @Test func twoProcessesTakeTurnsOnTheDisplay() async throws {
      let brltty = try PrivateBrltty()
      try brltty.startScreenReader(showing: "screen reader line")
      let turns = NSTemporaryDirectory() + "announce-braille-turns-\(UUID().uuidString.prefix(6))"
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
      #expect(await brltty.waitUntilShown("first process"))
      let b = second.show("second process", withSpeech: false)
      for await event in secondEvents {
        #expect(event.kind == .waitingForTurn)
        break
      }
      #expect(await first.outcome(of: a)?.wasDelivered == true)
      #expect(await second.outcome(of: b)?.wasDelivered == true)
      #expect(await brltty.waitUntilShown("screen reader line"))
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
      #expect(await brltty.waitUntilShown("Build failed"))
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
      #expect(await brltty!.waitUntilShown("Build failed"), "the display showed \(brltty!.shown)")
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
}
