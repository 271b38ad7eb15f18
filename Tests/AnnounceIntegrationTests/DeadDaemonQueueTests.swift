import Foundation
import Testing

extension SpeakingTests {
  /// A speech-dispatcher killed while announcements wait behind the one speaking: for good,
  /// or started again within the window. Each test kills a private daemon of its own.
  @Suite struct DeadDaemonQueue: RealStackTest {
    let stack: TestStack

    init() throws {
      stack = try TestStack.start(name: "dead-queue-\(UInt32.random(in: 0...UInt32.max))")
      // The first message after the daemon starts is slow while the module spins up.
      let warm = try announce(["--timeout", "10", "Ready"])
      guard warm.status == 0 else {
        stack.stop()
        throw StackError("the private daemon did not speak: \(warm.standardError)")
      }
    }

    /// A long line that is still speaking when the daemon is killed, and five behind it.
    static var queued: [String] { [long, "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"] }

    /// With one window per line, this took 12 s (`--timeout 30` and 50 lines: 25 minutes).
    /// Now the first line's window decides for all of them.
    @Test func aDaemonKilledForGoodGivesUpEveryWaitingLineWhenTheFirstWindowCloses() throws {
      defer { stack.stop() }
      let running = try startAnnounce(["--json", "--timeout", "2"] + Self.queued)
      #expect(running.waitForOutput(containing: "\"event\":\"begin\""))
      Thread.sleep(forTimeInterval: 1)
      stack.stop()
      let result = running.wait(timeout: 30)
      #expect(result.status == 69, "\(result.standardError)")
      // The window closes 2 s after the first attempt; slack for a loaded machine.
      #expect(result.seconds < 6, "took \(result.seconds) s")
      let gaveUp = jsonEvents(result.standardOutput).filter { $0["event"] as? String == "gave-up" }
      #expect(gaveUp.compactMap { $0["id"] as? Int }.sorted() == Array(1...6), "\(result.standardOutput)")
      #expect(gaveUp.allSatisfy { $0["reason"] as? String == "disconnected" })
      // One sentence for the six, and the one that names the address.
      #expect(
        result.standardError.contains("and the 5 announcements waiting after it"), "\(result.standardError)")
      #expect(result.standardError.contains(stack.directory + "/speechd.sock"))
    }

    @Test func aDaemonStartedAgainWithinTheWindowStillSpeaksEveryLine() throws {
      defer { stack.stop() }
      let running = try startAnnounce(["--json", "--timeout", "20"] + Self.queued)
      #expect(running.waitForOutput(containing: "\"event\":\"begin\""))
      Thread.sleep(forTimeInterval: 1)
      stack.stop()
      try stack.startAgain()
      let result = running.wait(timeout: 90)
      #expect(result.status == 0, "\(result.standardError)")
      let spoken = jsonEvents(result.standardOutput).filter { $0["event"] as? String == "spoken" }
      #expect(spoken.compactMap { $0["id"] as? Int }.sorted() == Array(1...6), "\(result.standardOutput)")
    }
  }
}
