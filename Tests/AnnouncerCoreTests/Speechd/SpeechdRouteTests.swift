import AnnouncerTesting
import Foundation
import Testing

@testable import AnnouncerCore

/// Finding the speech-dispatcher of the user's own machine, forwarded over SSH.
@Suite struct SpeechdRouteTests {
  /// A runtime folder that nothing makes: what the route finds there is the same everywhere.
  let runtime = UnusedPath.folder()
  var underSSH: [String: String] {
    ["SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 22", "XDG_RUNTIME_DIR": runtime]
  }

  @Test func underSSHWithoutAnAddressTheForwardedSocketComesBeforeTheLocalDefault() throws {
    #expect(
      try SpeechdRoute.resolve(nil, environment: underSSH, userID: 7)
        == .forwardedFirst(
          path: "\(runtime)/announce-speechd.sock",
          local: .unixSocket(path: "\(runtime)/speech-dispatcher/speechd.sock", isUserDefault: true)))
  }

  @Test func withoutARuntimeDirectoryTheForwardedSocketIsInTmpNamedByUserID() throws {
    let route = try SpeechdRoute.resolve(
      nil, environment: ["SSH_CONNECTION": "a b c d", "HOME": UnusedPath.folder()], userID: 1001)
    guard case .forwardedFirst(let path, _) = route else {
      Issue.record("\(route)")
      return
    }
    #expect(path == "/tmp/announce-speechd-1001.sock")
  }

  @Test func anAddressGivenOrNoSSHSessionMeansExactlyThatAddress() throws {
    var withAddress = underSSH
    let socket = UnusedPath.file("env.sock")
    withAddress["SPEECHD_ADDRESS"] = "unix_socket:" + socket
    #expect(
      try SpeechdRoute.resolve(nil, environment: withAddress, userID: 7)
        == .address(.unixSocket(path: socket, isUserDefault: false)))
    #expect(
      try SpeechdRoute.resolve("inet_socket", environment: underSSH, userID: 7)
        == .address(.inetSocket(host: "127.0.0.1", port: 6560)))
    #expect(
      try SpeechdRoute.resolve(nil, environment: ["XDG_RUNTIME_DIR": runtime], userID: 7)
        == .address(.unixSocket(path: "\(runtime)/speech-dispatcher/speechd.sock", isUserDefault: true)))
  }

  @Test func theSentencesNameEveryPlaceLookedAtAndTheFix() {
    let nothing = SpeechdConnectError.nothingForwarded(
      forwardedPath: "\(runtime)/announce-speechd.sock",
      local: .unixSocket(path: "\(runtime)/speech-dispatcher/speechd.sock", isUserDefault: true),
      detail:
        "Error: Can't connect to unix socket \(runtime)/x: No such file or directory. Autospawn: Autospawn failed."
    )
    #expect(
      nothing.sentence(forwardingWith: "the lines of some-command ssh")
        == "announce found no speech-dispatcher socket forwarded over SSH at \(runtime)/announce-speechd.sock and could not reach speech-dispatcher at the unix socket \(runtime)/speech-dispatcher/speechd.sock: no such file or directory, and starting it failed; forward the one on your own machine with the lines of some-command ssh, or start speech-dispatcher here."
    )
    let stale = SpeechdConnectError.staleForward(path: "\(runtime)/announce-speechd.sock", removed: true)
    #expect(stale.description.contains("\(runtime)/announce-speechd.sock"))
    #expect(stale.description.contains("announce removed it"))
    #expect(
      stale.sentence(forwardingWith: "the lines of some-command ssh").contains(
        "with the lines of some-command ssh,"))
    // The library names no command of its own; the command supplies its wording.
    for sentence in [nothing.description, stale.description] {
      #expect(sentence.contains("with a RemoteForward line in ~/.ssh/config,"), "\(sentence)")
      #expect(!sentence.contains("announce init"), "\(sentence)")
    }
    for sentence in [nothing.description, stale.description] {
      #expect(!sentence.contains("\n"))
      #expect(sentence.hasSuffix(".") && !sentence.contains(". "), "\(sentence)")
    }
  }
}

/// A forwarded socket that is really there, on this machine, with nothing or a hang-up behind it.
@Suite final class StaleForwardTests {
  let temporary: SocketDirectory
  var directory: String { temporary.path }

  init() throws { temporary = try SocketDirectory("fwd") }

  var environment: [String: String] {
    ["SSH_CONNECTION": "127.0.0.1 1 127.0.0.1 2", "XDG_RUNTIME_DIR": directory]
  }
  var path: String { directory + "/" + ForwardedSpeechdSocket.fileName }

  /// A bound Unix socket at `path`; listening or not.
  func boundSocket(listening: Bool) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
      raw[path.utf8.count] = 0
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, !listening || listen(fd, 4) == 0 else { throw POSIXError(.EIO) }
    return fd
  }

  @Test func aSocketFileNobodyListensOnIsReportedAsStaleAndRemoved() async throws {
    close(try boundSocket(listening: false))
    #expect(ForwardedSpeechdSocket.presence(at: path) == .ours)
    await #expect(throws: SpeechdConnectError.staleForward(path: path, removed: true)) {
      _ = try await SpeechdClient.connect(environment: environment)
    }
    #expect(ForwardedSpeechdSocket.presence(at: path) == .absent)
  }

  @Test func aForwardThatAcceptsAndHangsUpIsStaleButStays() async throws {
    let listener = try boundSocket(listening: true)
    defer { close(listener) }
    // sshd whose client cannot reach its own daemon: it accepts, then closes.
    let hangUp = Thread {
      let connection = accept(listener, nil, nil)
      close(connection)
    }
    hangUp.start()
    await #expect(throws: SpeechdConnectError.staleForward(path: path, removed: false)) {
      _ = try await SpeechdClient.connect(environment: environment)
    }
    #expect(ForwardedSpeechdSocket.presence(at: path) == .ours)
  }

  /// A stopped or hung sshd session: its socket's backlog is full, and a blocking connect()
  /// to it would never return.
  @Test func aForwardWhoseBacklogIsFullIsHungNotStaleAndStays() async throws {
    let stuck = try StuckListener.unix(at: path)
    #expect(ForwardedSpeechdSocket.listener(at: path, within: .milliseconds(200)) == .notAccepting)
    // A blocking connect() never returned. Not accepting (rather than accepting and not
    // answering) is what the forward's greeting bound finds, not the connect bound around
    // it; how long a run takes is held by the command's tests.
    let environment = self.environment
    #expect(
      await ConnectAttempt.error { try await SpeechdClient.connect(environment: environment) }
        == .forwardHung(path: path, acceptsConnections: false))
    #expect(ForwardedSpeechdSocket.presence(at: path) == .ours)
    withExtendedLifetime(stuck) {}
  }

  /// An sshd that takes the connection but whose session is hung: nothing ever answers.
  @Test func aForwardThatTakesConnectionsAndNeverAnswersIsHungAndStays() async throws {
    let listener = try boundSocket(listening: true)
    defer { close(listener) }
    #expect(ForwardedSpeechdSocket.listener(at: path) == .accepts)
    await #expect(throws: SpeechdConnectError.forwardHung(path: path, acceptsConnections: true)) {
      _ = try await SpeechdClient.connect(environment: environment)
    }
    #expect(ForwardedSpeechdSocket.presence(at: path) == .ours)
  }

  @Test func aForwardNobodyListensOnIsRefused() throws {
    close(try boundSocket(listening: false))
    #expect(ForwardedSpeechdSocket.listener(at: path) == .refused)
  }

  @Test func aFileThatIsNotOurSocketIsNotTalkedTo() throws {
    #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    #expect(ForwardedSpeechdSocket.presence(at: path) == .foreign)
    #expect(ForwardedSpeechdSocket.presence(at: directory + "/missing") == .absent)
  }
}
