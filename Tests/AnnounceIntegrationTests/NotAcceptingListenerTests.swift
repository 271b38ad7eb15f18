import AnnouncerCore
import AnnouncerTesting
import Foundation
import Testing

/// Issue 39 item 1: a listener whose backlog is full never accepts, and a blocking
/// `connect()` to it never returns. The command and the hooks end within 5 seconds, with
/// status 69 and one line that says the listener does not accept connections. No daemon
/// is involved: the listener is the test's own.
@Suite final class NotAcceptingListenerTests {
  /// The bound the issue sets for a run, start-up included.
  static let bound = 5.0

  let directory: String

  init() throws {
    directory = NSTemporaryDirectory() + "announce-stuck-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  /// The command lines a person or a hook runs: the message, doctor, and the hooks'
  /// background processes, which must not pile up at every prompt.
  static let commands: [[String]] = [
    ["hello"],
    ["doctor"],
    ["hook-finished", "--status", "1", "--milliseconds", "60000", "--", "make"],
    ["tmux-alert", "bell", "--server", "1", "--window", "@1", "--index", "1", "build"],
  ]

  func run(_ arguments: [String], _ extra: [String: String]) throws -> Command.Result {
    var environment = ProcessInfo.processInfo.environment.filter {
      !$0.key.hasPrefix("ANNOUNCE_") && $0.key != "SPEECHD_ADDRESS" && $0.key != "SSH_CONNECTION"
        && $0.key != "TMUX"
    }
    environment["XDG_STATE_HOME"] = directory + "/state"
    environment["XDG_RUNTIME_DIR"] = directory + "/run"
    environment.merge(extra) { _, new in new }
    // Well past the bound, so that the old code's hang fails the test rather than the suite.
    return try Command.run(Command.announce, arguments, environment: environment, timeout: 20)
  }

  /// Status 69 within the bound, and the sentence on standard error, or for doctor on
  /// standard output, as its daemon line.
  func expectEnds(
    _ arguments: [String], _ extra: [String: String], saying sentence: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try run(arguments, extra)
    let said = arguments.first == "doctor" ? result.standardOutput : result.standardError
    #expect(
      result.status == 69, "\(result.standardOutput)\(result.standardError)", sourceLocation: sourceLocation)
    #expect(result.seconds < Self.bound, "took \(result.seconds) s", sourceLocation: sourceLocation)
    // Doctor's lines start with a capital letter.
    #expect(said.lowercased().contains(sentence.lowercased()), "\(said)", sourceLocation: sourceLocation)
    if arguments.first != "doctor" {
      #expect(
        result.standardError.split(separator: "\n").count <= 1, "\(result.standardError)",
        sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: commands)
  func aUnixSocketWhoseBacklogIsFull(_ arguments: [String]) throws {
    let path = directory + "/speechd.sock"
    let stuck = try StuckListener.unix(at: path)
    defer { withExtendedLifetime(stuck) {} }
    try expectEnds(
      arguments, ["SPEECHD_ADDRESS": stuck.address],
      saying: "speech-dispatcher at the unix socket \(path) does not accept connections")
  }

  @Test(arguments: commands)
  func aTCPPortWhoseAcceptQueueIsFull(_ arguments: [String]) throws {
    let stuck = try StuckListener.tcp()
    defer { withExtendedLifetime(stuck) {} }
    let port = stuck.address.split(separator: ":").last ?? ""
    try expectEnds(
      arguments, ["SPEECHD_ADDRESS": stuck.address],
      saying: "speech-dispatcher at 127.0.0.1 port \(port) does not accept connections")
  }

  /// What a stopped or hung sshd session leaves: its forwarded socket is there and
  /// listened on, and its backlog fills up with every prompt's hook. The stale-forward
  /// check connected to it with a blocking connect() and hung for ever.
  @Test(arguments: commands)
  func aForwardedSocketWhoseBacklogIsFull(_ arguments: [String]) throws {
    let path = directory + "/run/" + ForwardedSpeechdSocket.fileName
    let stuck = try StuckListener.unix(at: path)
    defer { withExtendedLifetime(stuck) {} }
    try expectEnds(
      arguments, ["SSH_CONNECTION": "127.0.0.1 50000 127.0.0.1 22"],
      saying:
        "forwarded over SSH at \(path), but it does not accept connections, so the SSH session behind it is stopped or hung"
    )
    #expect(ForwardedSpeechdSocket.presence(at: path) == .ours, "a live session's socket was removed")
  }
}
