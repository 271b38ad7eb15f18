import Foundation
import Testing

extension SpeakingTests {
  /// A private speech-dispatcher stopped with SIGSTOP in the middle of a listing or of the
  /// voice check, at the moment its list is asked for (see ``StoppingRelay``): a list cut
  /// short is never a success, and it is reported as speaking reports a daemon that does not
  /// answer, in one sentence naming the 2-second bound, exit 69, in about 2 seconds.
  @Suite struct StoppedDuringListing {
    static let arguments: [(arguments: [String], trigger: String)] = [
      (["--list-voices"], "LIST SYNTHESIS_VOICES"),
      (["--list-voices", "-o", "espeak-ng", "-l", "de"], "LIST SYNTHESIS_VOICES"),
      (["--list-modules"], "LIST OUTPUT_MODULES"),
      (["--voice", "NoSuchVoice", "Saved"], "LIST SYNTHESIS_VOICES"),
      (["--output-module", "nosuchmodule", "Saved"], "LIST OUTPUT_MODULES"),
      (["--voice", "NoSuchVoice", "Saved"], "GET OUTPUT_MODULE"),
    ]

    @Test(arguments: arguments)
    func aDaemonStoppedDuringTheListIsNotAnsweringInAboutTwoSeconds(
      arguments: [String], trigger: String
    ) throws {
      let stack = try TestStack.start(name: "listing-\(UInt32.random(in: 0...UInt32.max))")
      let daemon = try #require(stack.environment["TESTSTACK_SD_PID"].flatMap { pid_t($0) })
      defer {
        kill(daemon, SIGCONT)
        stack.stop()
      }
      let relay = try StoppingRelay(
        at: stack.directory + "/relay.sock", daemonSocket: stack.address.replacing("unix_socket:", with: ""),
        daemon: daemon, stoppingAt: trigger)
      defer { relay.close() }
      let result = try Command.run(
        Command.announce, arguments,
        environment: stack.clientEnvironment(["SPEECHD_ADDRESS": "unix_socket:" + relay.path]), timeout: 30)
      #expect(relay.hasStopped, "the daemon was never asked \(trigger)")
      #expect(result.status == 69, "\(result.standardError)")
      #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
      #expect(result.standardError.contains("did not answer within 2 seconds"), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
      // 2 s of silence, and slack for a loaded machine.
      #expect(result.seconds < 5, "took \(result.seconds) s")
    }

    @Test func throughTheSameRelayAnAnsweringDaemonListsAndRefusesAnUnknownVoiceAtOnce() throws {
      let stack = try TestStack.start(name: "listing-\(UInt32.random(in: 0...UInt32.max))")
      let daemon = try #require(stack.environment["TESTSTACK_SD_PID"].flatMap { pid_t($0) })
      defer { stack.stop() }
      let relay = try StoppingRelay(
        at: stack.directory + "/relay.sock", daemonSocket: stack.address.replacing("unix_socket:", with: ""),
        daemon: daemon, stoppingAt: "NOT A COMMAND")
      defer { relay.close() }
      let environment = stack.clientEnvironment(["SPEECHD_ADDRESS": "unix_socket:" + relay.path])
      let modules = try Command.run(Command.announce, ["--list-modules"], environment: environment)
      #expect(modules.status == 0 && modules.standardOutput.contains("espeak-ng"), "\(modules.standardError)")
      let unknown = try Command.run(
        Command.announce, ["--voice", "NoSuchVoice", "Saved"], environment: environment)
      #expect(unknown.status == 64, "\(unknown.standardError)")
      #expect(unknown.standardError.contains("has no voice \"NoSuchVoice\""), "\(unknown.standardError)")
      #expect(unknown.seconds < 5, "took \(unknown.seconds) s")
    }
  }
}
