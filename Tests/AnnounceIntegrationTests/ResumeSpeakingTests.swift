import AnnouncerCore
import Foundation
import Testing

extension SpeakingTests {
  /// A retry resumes at the sentence that was cut off, on the real stack. Nested in
  /// ``SpeakingTests``, so that no other test speaks through the shared daemon meanwhile.
  @Suite struct Resume: RealStackTest {
    let stack: TestStack

    init() throws {
      stack = try TestStack.shared.get()
    }

    static let text =
      "The first step copied all the files. The second step compiled the sources. The third step ran every test in the suite. The fourth step wrote the report."

    @Test func cutOffInTheThirdSentenceTheRetrySpeaksOnlyTheRest() async throws {
      let whole = try stack.record()
      let alone = try Command.run(
        Command.announce, ["--timeout", "0", Self.text], environment: stack.clientEnvironment())
      let fullDuration = whole.stop()
      #expect(alone.status == 0, "\(alone.standardError)")

      let interrupter = try await Interrupter(stack: stack)
      let recording = try stack.record()
      let running = try Running(
        Command.announce, ["--json", "--timeout", "30", Self.text],
        environment: stack.clientEnvironment())
      // Each boundary mark sits just before the sentence's full stop, where espeak-ng
      // reports it; the second one means the third sentence has begun.
      #expect(running.waitForOutput(containing: "\"mark\":\"announce-sentence-2\"", timeout: 20))
      try await Task.sleep(for: .milliseconds(700))
      let interruptedAt = recording.now()
      // A screen reader speaks at `message` priority, which cuts off `text`.
      let id = try await interrupter.say("Excuse me.", priority: .message)
      let result = running.wait()
      let data = recording.stopKeepingData()
      #expect(result.status == 0, "\(result.standardError)")
      #expect(await interrupter.finalEvent(of: id) == .ended(id))

      let events = result.standardOutput.split(separator: "\n")
      let third = Self.text.range(of: "The third")!.lowerBound
      let resumeAt = Self.text.unicodeScalars.distance(from: Self.text.startIndex, to: third)
      #expect(
        events.contains { $0.contains("\"event\":\"attempt\"") && $0.contains("\"resumeAt\":\(resumeAt)") },
        "\(result.standardOutput)")
      #expect(events.last?.contains("\"event\":\"spoken\"") == true)
      let afterInterruption = Recording.speechSeconds(in: recording.samples(in: data, after: interruptedAt))
      // Without resuming, this would be the interrupter's words and the whole text again.
      #expect(
        afterInterruption < fullDuration * 0.75,
        "\(afterInterruption) s after the interruption; the whole text is \(fullDuration) s")
      await interrupter.close()
    }
  }
}
