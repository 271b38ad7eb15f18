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

    /// Runs announce on the six lines with `timeout`, kills the daemon 1 s into the first,
    /// and returns what the rest of the run amounts to; `comingBack` starts it again at once.
    func killingTheDaemon(timeout: String, comingBack: Bool) throws -> Command.Result {
      let running = try startAnnounce(["--json", "--timeout", timeout] + Self.queued)
      #expect(running.waitForOutput(containing: "\"event\":\"begin\""))
      Thread.sleep(forTimeInterval: 1)
      stack.stop()
      if comingBack { try stack.startAgain() }
      return running.wait(timeout: 90)
    }

    /// The ids of the `event` events in `result`'s JSON stream, in order.
    func ids(of event: String, in result: Command.Result) -> [Int] {
      jsonEvents(result.standardOutput).filter { $0["event"] as? String == event }
        .compactMap { $0["id"] as? Int }
    }

    /// With one window per line, this took 12 s (`--timeout 30` and 50 lines: 25 minutes).
    /// Now the first line's window decides for all of them.
    @Test func aDaemonKilledForGoodGivesUpEveryWaitingLineWhenTheFirstWindowCloses() throws {
      defer { stack.stop() }
      let result = try killingTheDaemon(timeout: "2", comingBack: false)
      #expect(result.status == 69, "\(result.standardError)")
      // The window closes 2 s after the first attempt; slack for a loaded machine.
      #expect(result.seconds < 6, "took \(result.seconds) s")
      #expect(ids(of: "gave-up", in: result).sorted() == Array(1...6), "\(result.standardOutput)")
      #expect(!result.standardOutput.contains("\"event\":\"spoken\""))
      let reasons = result.standardOutput.components(separatedBy: "\"reason\":\"disconnected\"")
      #expect(reasons.count - 1 == 6)
      // One sentence for the six, and the one that names the address.
      #expect(
        result.standardError.contains("and the 5 announcements waiting after it"), "\(result.standardError)")
      #expect(result.standardError.contains(stack.directory + "/speechd.sock"))
    }

    @Test func aDaemonStartedAgainWithinTheWindowStillSpeaksEveryLine() throws {
      defer { stack.stop() }
      let result = try killingTheDaemon(timeout: "20", comingBack: true)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(ids(of: "spoken", in: result).sorted() == Array(1...6), "\(result.standardOutput)")
    }
  }
}
