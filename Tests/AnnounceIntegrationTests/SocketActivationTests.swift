import Foundation
import Testing

extension SpeakingTests {
  /// speech-dispatcher started on the first connection by systemd-socket-activate, as
  /// Debian 13's `speech-dispatcher.socket` user unit starts it. The output module then
  /// takes several seconds to start (about 5 s measured on 0.12), which must never be
  /// taken for a stall. speech-dispatcher 0.11.4 does not take a socket passed this way:
  /// nothing ever answers on it.
  @Suite struct SocketActivation: RealStackTest {
    let stack: TestStack
    init() throws {
      stack = try TestStack.start(name: "activated-\(UInt32.random(in: 0...UInt32.max))", .socketActivated)
    }

    @Test func theFirstAnnouncementAfterActivationIsHeardOn012AndNotAnsweringOn0114() throws {
      defer { stack.stop() }
      let recording = try stack.record()
      let result = try announce(["--timeout", "20", "The daemon was started for me"])
      let speech = recording.stop()
      if stack.isRelease012 {
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        #expect(speech > 0.8, "only \(speech) s of speech was recorded")
      } else {
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains("is listening but did not answer"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(speech < 0.05)
      }
    }
  }
}
