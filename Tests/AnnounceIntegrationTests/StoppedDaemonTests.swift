import Foundation
import Testing

extension SpeakingTests {
  /// A speech-dispatcher stopped with SIGSTOP, the way a frozen daemon looks from outside:
  /// the kernel still takes connections into its backlog, and nothing answers. Each test
  /// stops a private daemon of its own, never the shared one, and continues it in cleanup.
  @Suite struct StoppedDaemon: RealStackTest {
    let stack: TestStack
    /// The daemon's process id.
    let daemon: pid_t

    init() throws {
      stack = try TestStack.start(name: "stopped-\(UInt32.random(in: 0...UInt32.max))")
      guard let pid = stack.environment["TESTSTACK_SD_PID"].flatMap({ pid_t($0) }) else {
        stack.stop()
        throw StackError("the stack names no speech-dispatcher process")
      }
      daemon = pid
      // The first message after the daemon starts is slow while the module spins up.
      let warm = try announce(["--timeout", "10", "Ready"])
      guard warm.status == 0 else {
        stack.stop()
        throw StackError("the private daemon did not speak: \(warm.standardError)")
      }
    }

    /// Continues the daemon, if it is stopped, and stops the stack.
    func cleanUp() {
      kill(daemon, SIGCONT)
      stack.stop()
    }

    @Test func aDaemonStoppedBeforeTheRunIsCalledStoppedOrFrozenNotAnImpostor() throws {
      defer { cleanUp() }
      kill(daemon, SIGSTOP)
      let result = try announce(["--timeout", "5", "Saved"])
      #expect(result.status == 69, "\(result.standardError)")
      #expect(result.standardError.contains("is listening but did not answer"), "\(result.standardError)")
      #expect(!result.standardError.contains("protocol"))
      #expect(result.standardError.split(separator: "\n").count == 1)
      #expect(result.seconds < 5, "took \(result.seconds) s")
    }

    /// Stopped while it speaks: the progress check cannot reach it. The announcement gives
    /// up as not answering (not as broken audio) when its window closes, and announce does
    /// not then wait for the daemon to take its goodbye.
    @Test func aDaemonStoppedWhileSpeakingEndsAsNotAnsweringWithinTheWindow() throws {
      defer { cleanUp() }
      let running = try startAnnounce(["--json", "--timeout", "5", Self.long])
      #expect(running.waitForOutput(containing: "\"event\":\"begin\""))
      kill(daemon, SIGSTOP)
      let result = running.wait(timeout: 30)
      #expect(result.status == 69, "\(result.standardError)")
      #expect(result.standardOutput.contains("\"reason\":\"not-answering\""), "\(result.standardOutput)")
      #expect(result.standardError.contains("stopped answering"), "\(result.standardError)")
      #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
      // The window of 5 s, counted from the first attempt, and slack for a loaded machine.
      #expect(result.seconds < 8, "took \(result.seconds) s")
    }

    /// Continued (SIGCONT) within the window, after the 2 s a stall is given, the daemon
    /// finishes the announcement and it is heard.
    ///
    /// The daemon is stopped by a ``StoppingRelay`` as the first progress probe (a silent
    /// message, 1 s after BEGIN) reaches it, unread. A SIGSTOP sent once the test had read
    /// BEGIN made the run exit 69 in 1 run of 17 on 0.12, on a loaded machine: sent that
    /// late, it can land after the daemon took the probe, and a probe taken and not
    /// answered within 2 s is a stall. The 4 s stop is what is tested: it outlasts that bound.
    @Test func aDaemonContinuedWithinTheWindowFinishesTheAnnouncement() throws {
      defer { cleanUp() }
      let relay = try StoppingRelay(
        at: stack.directory + "/relay.sock", daemonSocket: stack.address.replacing("unix_socket:", with: ""),
        daemon: daemon, stoppingAt: "<speak></speak>")
      defer { relay.close() }
      let running = try Running(
        Command.announce, ["--json", "--timeout", "30", Self.long],
        environment: stack.clientEnvironment(["SPEECHD_ADDRESS": "unix_socket:" + relay.path]))
      #expect(running.waitForOutput(containing: "\"event\":\"begin\""))
      #expect(eventually { relay.hasStopped ? true : nil } == true, "no progress probe was sent")
      Thread.sleep(forTimeInterval: 4)
      kill(daemon, SIGCONT)
      let result = running.wait(timeout: 60)
      #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
      #expect(result.standardOutput.contains("\"event\":\"spoken\""), "\(result.standardOutput)")
    }
  }
}
