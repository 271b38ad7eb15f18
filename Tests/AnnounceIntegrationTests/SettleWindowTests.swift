import AnnouncerCore
import Foundation
import Testing

extension SpeakingTests {
  /// A screen reader's short silence between two of its own messages is not quiet.
  @Suite struct SettleWindow: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// Orca (43.1) speaks at `message` priority and, on each focus change, cancels its own
    /// speech (`CANCEL self`) and sends its next message: with key echo off, the channel is
    /// silent for about 27 ms between them, and up to about 50 ms was seen. A retry that
    /// started in that silence had to be cut off by Orca's next message, which was then
    /// heard late. Here a client does that twenty times while announce waits for quiet,
    /// with a silence of 45 ms each time: announce must retry once, after the last message,
    /// and not cut any of them off.
    ///
    /// The silence is timed from the CANCEL event of the cancelled message: speech-dispatcher
    /// 0.11.4 keeps the channel busy for about 25 ms after `CANCEL self` while the module
    /// stops (a probe every 3 ms found it quiet only from then on). A probe sent in the
    /// silence must also end before the next message arrives, or that message discards it:
    /// on 0.11.4 that takes about 30 ms, on 0.12 about 6 ms. So without the settle window a
    /// probe every 100 ms falls into such a silence and ends there in about one gap of
    /// seven on 0.11.4 (one of three on 0.12); this test then failed in 2 runs of 2 on
    /// 0.11.4, with two retries started in the gaps each time.
    ///
    /// Each message is cancelled while it is speaking, from its BEGIN on: one that had
    /// already ended would leave a silence longer than the reader's, in which a retry is
    /// right. The messages last seconds, so none ends before it is cancelled; a message as
    /// short as "Focus moved to button 2", cancelled 250 to 350 ms after it was sent, had
    /// already ended in some runs on 0.12.
    @Test func aRetryNeverStartsInTheGapBetweenTwoMessagesOfAScreenReader() async throws {
      let reader = try await Interrupter(stack: stack)
      let running = try startAnnounce(["--json", "--timeout", "30", Self.long])
      #expect(running.waitForOutput(containing: "\"event\":\"begin\""))
      var id = try await reader.say(Self.focusMessage(1), priority: .message)
      #expect(await reader.waitUntilSpeaking(id))
      #expect(running.waitForOutput(containing: "\"event\":\"waiting-for-quiet\""))
      for number in 2...21 {
        #expect(await reader.waitUntilSpeaking(id), "the reader's message \(number - 1) never began")
        // Each message speaks for a different time, so that the silences fall at every
        // phase of announce's probing, which restarts when it is interrupted.
        try await Task.sleep(for: .milliseconds(250 + number * 37 % 100))
        #expect(reader.isSpeaking(id), "the reader's message \(number - 1) ended before it was cancelled")
        await reader.cancelOwnSpeech()
        // The channel is quiet from the cancelled message's CANCEL on.
        #expect(await reader.finalEvent(of: id) == .cancelled(id))
        try await Task.sleep(for: .milliseconds(45))
        id = try await reader.say(Self.focusMessage(number), priority: .message)
      }
      #expect(await reader.finalEvent(of: id) == .ended(id), "announce cut the reader's last message off")
      let result = running.wait(timeout: 60)
      await reader.close()
      #expect(result.status == 0, "\(result.standardError)")
      let attempts = jsonEvents(result.standardOutput).filter { $0["event"] as? String == "attempt" }
      #expect(attempts.count == 2, "announce retried inside the reader's gaps: \(result.standardOutput)")
    }

    /// What the reader says on focus change `number`: seconds of speech, far longer than
    /// the reader lets it speak before it cancels it.
    static func focusMessage(_ number: Int) -> String {
      "Focus moved to button \(number) of the print settings dialog, push button, press Enter to activate it"
    }
  }
}
