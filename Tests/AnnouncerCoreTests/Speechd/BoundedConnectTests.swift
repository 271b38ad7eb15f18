import AnnouncerTesting
import Foundation
import Glibc
import Testing

@testable import AnnouncerCore

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// Connecting within a deadline to listeners that take connections, refuse them, or never
/// accept them (a full backlog, as a stopped daemon or sshd session leaves it).
@Suite final class BoundedConnectTests {
  let temporary: SocketDirectory
  var directory: String { temporary.path }

  init() throws { temporary = try SocketDirectory("connect") }

  var path: String { directory + "/listener.sock" }

  /// `failure`, or `nil` when the connection was made (and is closed here).
  func failure(of result: Result<Int32, BoundedConnect.Failure>) -> BoundedConnect.Failure? {
    switch result {
    case .success(let socket):
      close(socket)
      return nil
    case .failure(let failure): return failure
    }
  }

  @Test func aUnixSocketWhoseBacklogStaysFullIsNotAcceptingAtTheDeadline() throws {
    let stuck = try StuckListener.unix(at: path)
    let started = ContinuousClock.now
    #expect(
      failure(of: BoundedConnect.connect(toPath: path, until: .now + .milliseconds(300))) == .notAccepting)
    let waited = started.duration(to: .now)
    #expect(waited >= .milliseconds(250) && waited < .seconds(10), "waited \(waited)")
    withExtendedLifetime(stuck) {}
  }

  @Test func aUnixSocketWhoseListenerMakesRoomBeforeTheDeadlineIsConnected() throws {
    let stuck = try StuckListener.unix(at: path)
    Thread {
      Thread.sleep(forTimeInterval: 0.2)
      stuck.acceptOne()
    }.start()
    #expect(failure(of: BoundedConnect.connect(toPath: path, until: .now + .seconds(10))) == nil)
  }

  @Test func nothingListeningFailsAtOnceWithWhy() throws {
    let started = ContinuousClock.now
    #expect(
      failure(of: BoundedConnect.connect(toPath: path, until: .now + .seconds(10))) == .failed(errno: ENOENT))
    let unlistened = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(unlistened) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8 + [0]) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(unlistened, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(bound == 0)
    #expect(
      failure(of: BoundedConnect.connect(toPath: path, until: .now + .seconds(10)))
        == .failed(errno: ECONNREFUSED))
    #expect(started.duration(to: .now) < .seconds(2))
  }

  @Test func aTCPPortWhoseAcceptQueueStaysFullIsNotAcceptingAtTheDeadline() throws {
    let stuck = try StuckListener.tcp()
    guard case .inetSocket(let host, let port) = SpeechdAddress.parse(stuck.address) else {
      Issue.record("\(stuck.address)")
      return
    }
    let started = ContinuousClock.now
    #expect(
      failure(of: BoundedConnect.connect(host: host, port: port, until: .now + .milliseconds(300)))
        == .notAccepting)
    let waited = started.duration(to: .now)
    #expect(waited >= .milliseconds(250) && waited < .seconds(10), "waited \(waited)")
  }

  @Test func aTCPPortNothingListensOnIsRefusedAndOneThatAcceptsIsConnected() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
      }
    }
    #expect(bound)
    let port = Int(UInt16(bigEndian: address.sin_port))
    // Bound, not listening: the kernel answers with a reset.
    #expect(
      failure(of: BoundedConnect.connect(host: "127.0.0.1", port: port, until: .now + .seconds(10)))
        == .failed(errno: ECONNREFUSED))
    #expect(listen(listener, 4) == 0)
    #expect(
      failure(of: BoundedConnect.connect(host: "127.0.0.1", port: port, until: .now + .seconds(10))) == nil)
  }
}

/// Connecting to speech-dispatcher at an address whose listener never accepts: the run
/// learns so within the bound, and why, rather than waiting for ever.
@Suite final class NotAcceptingAddressTests {
  let temporary: SocketDirectory
  var directory: String { temporary.path }

  init() throws { temporary = try SocketDirectory("stuck") }

  @Test(arguments: ["unix", "tcp"])
  func anAddressWhoseListenerDoesNotAcceptIsNotAcceptingWithinTheGreetingsBound(kind: String) async throws {
    let stuck = try kind == "unix" ? StuckListener.unix(at: directory + "/speechd.sock") : StuckListener.tcp()
    let address = try #require(SpeechdAddress.parse(stuck.address))
    // The greeting's bound ended it, not the connect bound around it (`notAnswering`). How
    // long that took is held by the command's tests, each in a process of its own; here
    // other tests may hold this process's few threads for tens of seconds.
    #expect(
      await ConnectAttempt.error { try await SpeechdClient.connect(address: stuck.address, environment: [:]) }
        == .notAccepting(address, within: SSIPGreeting.replyBound))
    withExtendedLifetime(stuck) {}
  }

  @Test func theSentenceSaysItDoesNotAcceptAndWhatToDo() {
    let unix = SpeechdConnectError.notAccepting(
      .unixSocket(path: "\(testRoot)/run/user/7/speech-dispatcher/speechd.sock", isUserDefault: false),
      within: .seconds(2))
    #expect(
      unix.description
        == "speech-dispatcher at the unix socket \(testRoot)/run/user/7/speech-dispatcher/speechd.sock does not accept connections (none within 2 seconds), so it is stopped or hung; resume a stopped one with kill -CONT, or kill it and start it again."
    )
    let tcp = SpeechdConnectError.notAccepting(
      .inetSocket(host: "127.0.0.1", port: 6560), within: .seconds(2))
    #expect(tcp.description.hasPrefix("speech-dispatcher at 127.0.0.1 port 6560 does not accept connections"))
    #expect(tcp.description.contains("or a firewall drops them;"))
    let forward = SpeechdConnectError.forwardHung(
      path: "\(testRoot)/run/user/7/announce-speechd.sock", acceptsConnections: false)
    #expect(
      forward.sentence(forwardingWith: "the lines of some-command ssh")
        == "announce found a speech-dispatcher socket forwarded over SSH at \(testRoot)/run/user/7/announce-speechd.sock, but it does not accept connections, so the SSH session behind it is stopped or hung; end that session and log in again with the lines of some-command ssh, or set SPEECHD_ADDRESS."
    )
    let silent = SpeechdConnectError.forwardHung(
      path: "\(testRoot)/run/user/7/announce-speechd.sock", acceptsConnections: true)
    for sentence in [unix.description, tcp.description, forward.description, silent.description] {
      #expect(!sentence.contains("\n"))
      #expect(sentence.hasSuffix(".") && !sentence.contains(". "), "\(sentence)")
    }
  }
}
