import Foundation
import Testing

extension SpeakingTests {
  /// The braille test stack itself, on the brltty of the release under test (6.5 for
  /// `TESTSTACK_RELEASE=12`, 6.7 for 13): a private brltty with its Virtual driver, the
  /// virtual display, a stand-in screen reader, and a second client that flashes a message
  /// and gives the display back in the order of the braille notes. These prove what the
  /// braille tests of announce stand on; docs/braille.md has the measurements.
  ///
  /// Each test has a brltty of its own, so that no text or client is left over from
  /// another. Nested in ``SpeakingTests`` like every real-stack suite, so that it never
  /// runs beside the others on the loaded machine.
  @Suite struct BrailleStackTests {
    /// A stack, a display on it, and a screen reader showing `line`.
    struct Desk {
      let braille: BrailleStack
      let display: VirtualBrailleDisplay
      let screenReader: BrlAPIClient

      init(_ name: String, line: String = "Orca: terminal, build.log") throws {
        braille = try BrailleStack.start(name: "\(name)-\(UUID().uuidString.prefix(6))")
        do {
          display = try VirtualBrailleDisplay(stack: braille)
          screenReader = try BrlAPIClient(environment: braille.clientEnvironment())
          try screenReader.write(line)
        } catch {
          braille.stop()
          throw error
        }
      }

      /// A second client in `session`, at `priority`.
      func program(session: BrailleSession = .desktop, priority: Int = 70) throws -> BrlAPIClient {
        let client = try BrlAPIClient(
          environment: braille.clientEnvironment(session: session), role: .program)
        try client.setPriority(priority)
        return client
      }

      func close() {
        screenReader.close()
        display.close()
        braille.stop()
      }
    }

    static let line = "Orca: terminal, build.log"
    static let flash = "announce: build failed"

    @Test func brlttyOfTheReleaseStartsAndShowsItsOwnTextOnTheDisplay() throws {
      let braille = try BrailleStack.start(name: "start")
      defer { braille.stop() }
      let expected = braille.release == "13" ? "6.7" : "6.5"
      #expect(
        braille.version.hasPrefix(expected), "release \(braille.release) runs brltty \(braille.version)")
      #expect(braille.host.hasPrefix(":teststack-"))
      #expect(FileManager.default.fileExists(atPath: "/var/lib/BrlAPI/" + braille.host.dropFirst()))
      let display = try VirtualBrailleDisplay(stack: braille, cells: 20)
      defer { display.close() }
      let first = try #require(display.timeline.first)
      #expect(!first.text.isEmpty)
      #expect(first.padded.count == 20, "brltty pads the text to the width: \(first.padded.debugDescription)")
    }

    @Test func theScreenReadersLineIsShownWithQuotesBackslashesAndNonASCIIIntact() throws {
      let desk = try Desk("reader", line: #"Orca: "naïve" C:\build é"#)
      defer { desk.close() }
      #expect(desk.display.waitUntilShown(#"Orca: "naïve" C:\build é"#) != nil, "\(desk.display.timeline)")
      #expect(desk.screenReader.columns == 40)
    }

    @Test func aFlashAtPriority70IsShownAndAfterTheReleaseTheScreenReadersLineIsTheNextText() throws {
      let desk = try Desk("flash")
      defer { desk.close() }
      #expect(desk.display.waitUntilShown(Self.line) != nil)
      let program = try desk.program()
      defer { program.close() }
      try program.write(Self.flash)
      let shown = try #require(desk.display.waitUntilShown(Self.flash), "\(desk.display.timeline)")
      let released = ContinuousClock.now
      try program.release()
      let back = try #require(
        desk.display.waitUntilShown(Self.line, since: released, timeout: .seconds(2)),
        "the screen reader's line did not come back: \(desk.display.timeline)")
      // Nothing in between: no blank display, no stale flash.
      let after = desk.display.timeline.filter { $0.time > shown.time }
      #expect(after.first?.text == Self.line, "\(after)")
      #expect(back.time - released < .seconds(1), "back \(back.time - released) after the release began")
    }

    @Test func leavingTtyModeAloneLeavesTheFlashOnTheDisplay() throws {
      // The pitfall the release order works around on 6.5 and 6.7 (fixed upstream in 6.9).
      let desk = try Desk("stale")
      defer { desk.close() }
      let program = try desk.program()
      try program.write(Self.flash)
      #expect(desk.display.waitUntilShown(Self.flash) != nil)
      try program.leaveTtyMode()
      program.close()
      #expect(
        desk.display.waitUntilGone(Self.flash, timeout: .seconds(1)) == nil,
        "brltty \(desk.braille.version) redrew after a client left: \(desk.display.timeline)")
      // The screen reader's next write brings its line back.
      try desk.screenReader.write(Self.line + ".")
      #expect(desk.display.waitUntilShown(Self.line + ".") != nil)
    }

    @Test func aClientOutsideTheScreenReadersSessionIsNeverShown() throws {
      let desk = try Desk("session")
      defer { desk.close() }
      #expect(desk.display.waitUntilShown(Self.line) != nil)
      let outsider = try desk.program(session: .none, priority: 100)
      defer { outsider.close() }
      try outsider.write(Self.flash)
      #expect(
        desk.display.waitUntilShown(Self.flash, timeout: .seconds(1)) == nil,
        "a client on the root tty was shown over the session's: \(desk.display.timeline)")
      // The same client in the session is shown.
      let insider = try desk.program(session: .desktop, priority: 70)
      defer { insider.close() }
      try insider.write(Self.flash + "!")
      #expect(desk.display.waitUntilShown(Self.flash + "!") != nil, "\(desk.display.timeline)")
    }

    @Test func xdgVtnrWithDisplayPutsAClientInTheSameSessionAsWindowPath() throws {
      let desk = try Desk("vtnr")
      defer { desk.close() }
      let program = try desk.program(session: .vtNumber("7"))
      defer { program.close() }
      try program.write(Self.flash)
      #expect(desk.display.waitUntilShown(Self.flash) != nil, "\(desk.display.timeline)")
    }

    @Test func aKeyReachesTheClientThatHoldsTheDisplayAndAfterTheReleaseTheScreenReader() throws {
      let desk = try Desk("keys")
      defer { desk.close() }
      let program = try desk.program()
      defer { program.close() }
      try program.write(Self.flash)
      #expect(desk.display.waitUntilShown(Self.flash) != nil)
      try desk.display.press(.route(3))
      #expect(program.waitForKey { $0.command == "route" }?.argument == 3, "\(program.keys)")
      try desk.display.press(.fwinrt)
      #expect(program.waitForKey { $0.command == "fwinrt" } != nil, "\(program.keys)")
      #expect(desk.screenReader.keys.isEmpty, "\(desk.screenReader.keys)")

      let released = ContinuousClock.now
      try program.release()
      #expect(desk.display.waitUntilShown(Self.line, since: released) != nil)
      // One key at a time: the Virtual driver reads one line each time its socket becomes
      // readable, so a key sent right behind another waits for the next one (docs/braille.md).
      try desk.display.press(.route(5))
      #expect(
        desk.screenReader.waitForKey { $0.command == "route" }?.argument == 5, "\(desk.screenReader.keys)")
      try desk.display.press(.lnup)
      #expect(desk.screenReader.waitForKey { $0.command == "lnup" } != nil, "\(desk.screenReader.keys)")
      #expect(program.keys.count == 2, "\(program.keys)")
    }

    @Test func routeZeroIsRefusedBeforeItReachesBrltty() throws {
      let braille = try BrailleStack.start(name: "route0")
      defer { braille.stop() }
      let display = try VirtualBrailleDisplay(stack: braille)
      defer { display.close() }
      #expect(throws: VirtualBrailleDisplay.DisplayError.self) { try display.press(.route(0)) }
    }

    @Test func stoppingTheStackStopsBrlttyAndItsClientsSeeTheConnectionEnd() throws {
      let desk = try Desk("stop")
      defer { desk.close() }
      let pid = desk.braille.pid
      let socket = "/var/lib/BrlAPI/" + desk.braille.host.dropFirst()
      #expect(pid > 0 && kill(pid, 0) == 0)
      let stop = try Command.run(TestStack.script, ["stop", desk.braille.directory])
      #expect(stop.status == 0, "\(stop.standardError)")
      #expect(!FileManager.default.fileExists(atPath: socket))
      #expect(!FileManager.default.fileExists(atPath: desk.braille.directory + "/env"))
      let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      #expect(state.isEmpty || state.contains(") Z "), "brltty \(pid) still runs: \(state)")
      #expect(desk.display.waitForFrame(timeout: .seconds(2)) { _ in false } == nil)
      #expect(!desk.display.isConnected)
    }
  }
}
