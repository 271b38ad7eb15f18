import AnnouncerCore
import Foundation
import Testing

extension SpeakingTests {
  /// The quiet probe announce sends while it waits for quiet, on the release under test.
  @Suite struct QuietProbe: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// On an idle channel every probe ends (it is not discarded) and none of them makes a
    /// sound. speech-dispatcher 0.12 speaks a message of one space as the word "space"
    /// (about 0.44 s each), so ten probes of that form record over 4 s of speech there.
    @Test func probesOnAnIdleChannelEndAndAreSilent() async throws {
      let client = try await Interrupter(stack: stack)
      let recording = try stack.record()
      var finals: [SpeechEvent?] = []
      for _ in 0..<10 {
        let id = try await client.probe()
        let final = await client.finalEvent(of: id, timeout: 10)
        #expect(final == .ended(id), "probe \(id) ended with \(String(describing: final))")
        finals.append(final)
      }
      let speech = recording.stop()
      await client.close()
      #expect(finals.count == 10)
      #expect(speech < 0.05, "the probes recorded \(speech) s of sound")
    }

    /// While other speech plays, a probe is discarded at once: that is how announce tells
    /// that the channel is busy.
    @Test func aProbeWhileOtherSpeechPlaysIsCancelled() async throws {
      let speaker = try await Interrupter(stack: stack)
      let prober = try await Interrupter(stack: stack)
      let speaking = try await speaker.say(Self.long, priority: .message)
      #expect(await speaker.waitUntilSpeaking(speaking))
      let probe = try await prober.probe()
      #expect(await prober.finalEvent(of: probe) == .cancelled(probe))
      // Closing a connection leaves its speech playing; the next test must find quiet.
      await speaker.cancelOwnSpeech()
      #expect(await speaker.finalEvent(of: speaking) == .cancelled(speaking))
      await speaker.close()
      await prober.close()
    }
  }
}
