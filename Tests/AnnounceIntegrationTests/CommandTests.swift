import Foundation
import Testing
import AnnouncerTesting

/// The command's contract that needs no speech: usage errors, the man page, an unreachable daemon.
@Suite struct CommandTests {
  func announce(_ arguments: [String], environment: [String: String] = [:]) throws -> Command.Result {
    var merged = ProcessInfo.processInfo.environment.merging(Command.privateHome()) { _, own in own }
    merged.merge(environment) { _, new in new }
    return try Command.run(Command.announce, arguments, environment: merged)
  }

  @Test func everyOptionInHelpIsInTheManPage() throws {
    let help = try announce(["--help"])
    #expect(help.status == 0)
    let manPage = try String(
      contentsOf: TestStack.packageRoot.appendingPathComponent("man/announce.1"), encoding: .utf8)
    let options = Set(
      help.standardOutput.split(whereSeparator: { " ,\n".contains($0) })
        .filter { $0.hasPrefix("--") && $0.count > 2 }
        .map { String($0.prefix { $0 != "=" && $0 != "<" }) })
    #expect(options.count >= 6, "found \(options) in --help")
    for option in options {
      let manSpelling = "Fl \\-" + option.dropFirst(2)
      #expect(manPage.contains(manSpelling), "\(option) is in --help but not in man/announce.1")
    }
  }

  @Test(arguments: [
    (["--timeout", "abc", "x"], "--timeout"),
    (["--timeout", "inf", "x"], "--timeout"),
    (["--delay", "nan", "x"], "--delay"),
    (["--priority", "loud", "x"], "--priority"),
    (["--address", "tcp:nowhere", "x"], "--address"),
  ])
  func usageErrorsExit64AndNameTheOption(arguments: [String], named: String) throws {
    let result = try announce(arguments)
    #expect(result.status == 64)
    #expect(result.standardError.contains(named), "\(result.standardError)")
  }

  @Test func anUnreachableDaemonExits69QuicklyWithOneSentenceNamingTheAddress() throws {
    let socket = UnusedPath.file("announce.sock")
    let result = try announce(["Saved"], environment: ["SPEECHD_ADDRESS": "unix_socket:" + socket])
    #expect(result.status == 69)
    #expect(result.seconds < 2)
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(result.standardError.contains(socket))
    #expect(result.standardError.contains("start speech-dispatcher"))
  }
}

extension CommandTests {
  @Test(arguments: ["<speak>Hi <b>", "plain text", "<voice>x</voice>"])
  func invalidSSMLExits65BeforeSpeaking(document: String) throws {
    let result = try announce(
      ["--ssml", document], environment: ["SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("x.sock")])
    #expect(result.status == 65)
    #expect(result.standardError.hasPrefix("Bad input: The SSML"))
    #expect(result.standardError.split(separator: "\n").count == 1)
  }

  @Test(arguments: [
    ("ANNOUNCE_TIMEOUT", "soon"), ("ANNOUNCE_PRIORITY", "loud"), ("ANNOUNCE_RATE", "300"),
    ("ANNOUNCE_VOICE", "two words"), ("ANNOUNCE_LANGUAGE", "en us"), ("ANNOUNCE_MODULE", "a b"),
  ])
  func invalidEnvironmentDefaultsAreUsageErrorsNamingTheVariable(name: String, value: String) throws {
    let result = try announce(["Saved"], environment: [name: value])
    #expect(result.status == 64)
    #expect(result.standardError.contains("\(name)=\(value)"))
  }

  @Test func quietPrintsNothingOnStandardError() throws {
    let result = try announce(
      ["--quiet", "Saved"], environment: ["SPEECHD_ADDRESS": "unix_socket:" + UnusedPath.file("x.sock")])
    #expect(result.status == 69)
    #expect(result.standardError.isEmpty)
  }
}

extension CommandTests {
  /// `body` given the socket address of `path`, as bind and connect take it.
  static func withAddress<T>(of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
      raw[path.utf8.count] = 0
    }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }

  /// A Unix stream socket bound to `path` and listening.
  static func listeningSocket(at path: String, backlog: Int32) throws -> Int32 {
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard withAddress(of: path, { bind(listener, $0, $1) }) == 0, listen(listener, backlog) == 0 else {
      close(listener)
      throw SpawnError(description: "bind failed")
    }
    return listener
  }

  /// A Unix socket that accepts connections, says something that is not SSIP, and hangs up.
  final class ImpostorListener: Sendable {
    let path =
      NSTemporaryDirectory() + "announce-impostor-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"

    init() throws {
      let listener = try CommandTests.listeningSocket(at: path, backlog: 8)
      Thread {
        while true {
          let client = accept(listener, nil, nil)
          if client < 0 { return }
          _ = "HTTP/1.1 400 Bad Request\r\n\r\n".withCString {
            send(client, $0, strlen($0), Int32(MSG_NOSIGNAL))
          }
          close(client)
        }
      }.start()
    }
  }

  @Test func somethingThatIsNotSpeechDispatcherAtTheAddressIsReportedNotCrashedOn() throws {
    let impostor = try ImpostorListener()
    defer { unlink(impostor.path) }
    let result = try announce(["--address", "unix_socket:\(impostor.path)", "Saved"])
    #expect(result.status == 69, "\(result.standardError)")
    #expect(result.standardError.contains("does not speak speech-dispatcher's protocol"))
    #expect(result.standardError.split(separator: "\n").count == 1)
  }

  /// A Unix socket that listens and never accepts: the kernel completes connections into
  /// its backlog, exactly as for a speech-dispatcher stopped with SIGSTOP.
  final class SilentListener: Sendable {
    let path =
      NSTemporaryDirectory() + "announce-silent-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    let listener: Int32

    init(backlog: Int32 = 8) throws {
      listener = try CommandTests.listeningSocket(at: path, backlog: backlog)
    }

    /// Connects until the backlog refuses more, as many runs against a stopped daemon do.
    func fillBacklog() -> [Int32] {
      var clients: [Int32] = []
      while clients.count < 64 {
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        let connected = CommandTests.withAddress(of: path) { connect(client, $0, $1) }
        clients.append(client)
        if connected != 0 { break }
      }
      return clients
    }

    deinit {
      close(listener)
      unlink(path)
    }
  }

  /// Before, a stopped daemon was called "not speech-dispatcher".
  @Test func aListenerThatNeverAnswersIsCalledStoppedOrFrozenWithinTheBound() throws {
    let silent = try SilentListener()
    let result = try announce(["--address", "unix_socket:\(silent.path)", "--timeout", "5", "Saved"])
    #expect(result.status == 69, "\(result.standardError)")
    #expect(result.standardError.contains("is listening but did not answer within 2 seconds"))
    #expect(result.standardError.contains("stopped or frozen"))
    #expect(result.standardError.contains("kill -CONT"))
    #expect(!result.standardError.contains("protocol"))
    #expect(result.standardError.split(separator: "\n").count == 1)
    // The greeting's 2 s and slack; it took 2.2 s before too, but with the wrong sentence.
    #expect(result.seconds < 5, "took \(result.seconds) s")
  }

  /// Runs against a stopped daemon fill its listen backlog; connecting then blocks until
  /// the daemon accepts, which a blocking connect waited out for the whole 5 s connect bound.
  @Test func aListenerWithAFullBacklogIsCalledNotAccepting() throws {
    let silent = try SilentListener(backlog: 1)
    let clients = silent.fillBacklog()
    defer { for client in clients { close(client) } }
    let result = try announce(["--address", "unix_socket:\(silent.path)", "Saved"])
    #expect(result.status == 69, "\(result.standardError)")
    #expect(result.standardError.contains("does not accept connections"), "\(result.standardError)")
    #expect(result.standardError.contains("stopped or hung"), "\(result.standardError)")
    #expect(result.standardError.split(separator: "\n").count == 1)
    #expect(result.seconds < 4, "took \(result.seconds) s")
  }

  @Test(arguments: [
    ["--timeout", "1e308", "x"], ["--delay", "1e20", "x"], ["--timeout", "86401", "x"],
    ["--language", "en\r\nQUIT", "x"], ["--sound-icon", "a b", "x"],
  ])
  func hugeWaitsAndUnsafeNamesAreUsageErrors(arguments: [String]) throws {
    let result = try announce(arguments)
    #expect(result.status == 64, "\(result.standardError)")
  }

  @Test func anInvalidSpeechdAddressVariableIsAUsageError() throws {
    let result = try announce(["Saved"], environment: ["SPEECHD_ADDRESS": "garbage"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("SPEECHD_ADDRESS"))
  }
}

/// Which words choose a subcommand, as the spawned binary sees them.
@Suite struct SubcommandDispatchTests {
  func announce(_ arguments: [String]) throws -> Command.Result {
    var environment = ProcessInfo.processInfo.environment.merging(Command.privateHome()) { _, own in own }
    environment["SPEECHD_ADDRESS"] = "unix_socket:" + UnusedPath.file("dispatch.sock")
    return try Command.run(Command.announce, arguments, environment: environment)
  }

  @Test func initAsTheFirstArgumentPrintsTheHook() throws {
    let result = try announce(["init", "bash"])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("__announce_precmd"))
  }

  @Test(arguments: [["--", "init"], ["help"], ["Saved", "init"], ["--quiet", "init", "bash"]])
  func anyOtherPlaceSpeaksTheWord(arguments: [String]) throws {
    // Speaking is attempted, and fails here for want of speech-dispatcher.
    let result = try announce(arguments)
    #expect(result.status == 69, "\(result.standardOutput) \(result.standardError)")
  }
}
