import CSpeechd
import FoundationEssentials
import Glibc

/// Where speech-dispatcher listens, in the syntax of `SPEECHD_ADDRESS`:
/// `unix_socket[:PATH]` or `inet_socket[:HOST[:PORT]]`.
public enum SpeechdAddress: Sendable, Equatable, CustomStringConvertible {
  /// A Unix socket. `isUserDefault` is true when no address was given at all,
  /// which is the only case in which announce lets libspeechd start the daemon.
  case unixSocket(path: String, isUserDefault: Bool)
  /// A TCP socket.
  case inetSocket(host: String, port: Int)

  /// speech-dispatcher's default TCP port.
  package static let defaultPort = 6560

  /// Parses an address in `SPEECHD_ADDRESS` syntax; `nil` when it is not one.
  package static func parse(_ text: String) -> SpeechdAddress? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    switch parts.first {
    case "unix_socket":
      guard parts.count <= 2 else {
        // A path may itself contain colons.
        return .unixSocket(path: parts.dropFirst().joined(separator: ":"), isUserDefault: false)
      }
      let path = parts.count == 2 && !parts[1].isEmpty ? parts[1] : defaultSocketPath()
      return .unixSocket(path: path, isUserDefault: false)
    case "inet_socket":
      guard parts.count <= 3 else { return nil }
      let host = parts.count >= 2 && !parts[1].isEmpty ? parts[1] : "127.0.0.1"
      guard parts.count == 3 else { return .inetSocket(host: host, port: defaultPort) }
      guard let port = Int(parts[2]), (1...65535).contains(port) else { return nil }
      return .inetSocket(host: host, port: port)
    default:
      return nil
    }
  }

  /// The address to use: `explicit` if given, else `SPEECHD_ADDRESS`, else the user's default socket.
  package static func resolve(
    _ explicit: String?, environment: [String: String]
  ) throws(SpeechdConnectError) -> SpeechdAddress {
    if let explicit {
      guard let address = parse(explicit) else {
        throw .invalidAddress(explicit, source: "The address")
      }
      return address
    }
    if let fromEnvironment = environment["SPEECHD_ADDRESS"], !fromEnvironment.isEmpty {
      guard let address = parse(fromEnvironment) else {
        throw .invalidAddress(fromEnvironment, source: "SPEECHD_ADDRESS")
      }
      return address
    }
    return .unixSocket(path: defaultSocketPath(environment: environment), isUserDefault: true)
  }

  /// The socket speech-dispatcher uses by default for this user.
  package static func defaultSocketPath(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    let runtime =
      environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? HomeDirectory.path(environment: environment) + "/.cache")
    return runtime + "/speech-dispatcher/speechd.sock"
  }

  /// The path of a Unix socket address; `nil` for TCP.
  package var socketPath: String? {
    if case .unixSocket(let path, _) = self { return path }
    return nil
  }

  /// Whether this is the user's default address, for which the daemon may be started.
  package var isUserDefault: Bool {
    if case .unixSocket(_, true) = self { return true }
    return false
  }

  /// Reads like "the unix socket /run/user/1000/speech-dispatcher/speechd.sock", on one
  /// line: a line break in the path or host is written as its escape (``OneLine``).
  public var description: String {
    switch self {
    case .unixSocket(let path, _): "the unix socket \(OneLine.escaped(path))"
    case .inetSocket(let host, let port): "\(OneLine.escaped(host)) port \(port)"
    }
  }

  /// What to do when this address cannot be reached.
  var fixSuggestion: String {
    isUserDefault
      ? "install the speech-dispatcher package or start speech-dispatcher, then try again."
      : "start speech-dispatcher at that address, or correct the address or SPEECHD_ADDRESS."
  }

  /// A libspeechd address the caller frees with `SPDConnectionAddress__free`.
  func makeCAddress() -> UnsafeMutablePointer<SPDConnectionAddress>? {
    guard
      let raw = calloc(1, MemoryLayout<SPDConnectionAddress>.size)?
        .bindMemory(to: SPDConnectionAddress.self, capacity: 1)
    else { return nil }
    switch self {
    case .unixSocket(let path, _):
      raw.pointee.method = SPD_METHOD_UNIX_SOCKET
      raw.pointee.unix_socket_name = strdup(path)
    case .inetSocket(let host, let port):
      raw.pointee.method = SPD_METHOD_INET_SOCKET
      raw.pointee.inet_socket_host = strdup(host)
      raw.pointee.inet_socket_port = Int32(port)
    }
    return raw
  }
}

/// Why ``SpeechdClient/connect(address:environment:appName:)`` failed, or a list of
/// ``SpeechdLists`` could not be read.
public enum SpeechdConnectError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The address text is not in `SPEECHD_ADDRESS` syntax. `source` names where it came from.
  case invalidAddress(String, source: String)
  /// speech-dispatcher could not be reached at the address; `detail` is libspeechd's reason.
  case unreachable(SpeechdAddress, detail: String)
  /// Something listens at the address but did not answer within the bound: a
  /// speech-dispatcher that is stopped (SIGSTOP) or frozen, whose listen backlog still
  /// takes connections (or is full of them).
  case notAnswering(SpeechdAddress, within: Duration)
  /// Something listens at the address but took no connection within the bound: its
  /// backlog (or, on TCP, its accept queue) is full because it is stopped or hung.
  case notAccepting(SpeechdAddress, within: Duration)
  /// The host name of an `inet_socket` address does not resolve: the name service
  /// answered that there is no such name, or failed.
  case nameDoesNotResolve(SpeechdAddress)
  /// Looking up the host name of an `inet_socket` address took longer than the bound: the
  /// name servers do not answer.
  case lookupTookTooLong(SpeechdAddress, within: Duration)
  /// Under SSH, a forwarded socket exists at `path` but nothing answers there: the
  /// session that forwarded it has ended. `removed` says whether announce deleted it.
  case staleForward(path: String, removed: Bool)
  /// Under SSH, the forwarded socket at `path` is there and listened on, but the SSH session
  /// behind it is stopped or hung: it takes no connection (`acceptsConnections` false), or
  /// takes one and nothing answers through it.
  case forwardHung(path: String, acceptsConnections: Bool)
  /// Under SSH, no socket was forwarded to `forwardedPath`, and `local` could not be reached either.
  case nothingForwarded(forwardedPath: String, local: SpeechdAddress, detail: String)

  /// One sentence that names the cause and the fix.
  ///
  /// Under SSH, the fix is to forward speech-dispatcher from the user's own machine; this
  /// sentence says to do it with a `RemoteForward` line, and a command that writes such
  /// lines names itself with ``sentence(forwardingWith:)``.
  public var description: String { sentence(forwardingWith: "a RemoteForward line in ~/.ssh/config") }

  /// One sentence that names the cause and the fix, where `howToForward` says how a person
  /// forwards speech-dispatcher over SSH, for the end of a sentence; the library knows no
  /// command line, so its caller says.
  ///
  /// The sentence is one line, whatever the address and paths hold: `--json` and the
  /// outcome log keep it as one, and a screen reader reads each line aloud.
  public func sentence(forwardingWith howToForward: String) -> String {
    switch self {
    case .invalidAddress(let text, let source):
      "\(source) \"\(OneLine.escaped(text))\" is not a speech-dispatcher address; "
        + "use unix_socket:PATH or inet_socket:HOST:PORT."
    case .unreachable(let address, let detail):
      "announce could not reach speech-dispatcher at \(address): \(Self.reason(in: detail)); "
        + address.fixSuggestion
    case .notAnswering(let address, let bound):
      "speech-dispatcher at \(address) is listening but did not answer within "
        + "\(Self.seconds(bound)), so it is probably stopped or frozen; resume a stopped one "
        + "with kill -CONT, or kill it and start it again."
    case .notAccepting(let address, let bound):
      "speech-dispatcher at \(address) does not accept connections (none within \(Self.seconds(bound))), "
        + "so it is stopped or hung\(address.socketPath == nil ? ", or a firewall drops them" : ""); "
        + "resume a stopped one with kill -CONT, or kill it and start it again."
    case .nameDoesNotResolve(let address):
      "announce could not reach speech-dispatcher at \(address), because that host name does not resolve; "
        + "correct the host name in the address or SPEECHD_ADDRESS."
    case .lookupTookTooLong(let address, let bound):
      "announce could not reach speech-dispatcher at \(address), because looking up that host name took "
        + "longer than \(Self.seconds(bound)); check the name servers in /etc/resolv.conf, or write the "
        + "host's IP address in the address or SPEECHD_ADDRESS."
    case .forwardHung(let path, let acceptsConnections):
      "announce found a speech-dispatcher socket forwarded over SSH at \(OneLine.escaped(path)), but "
        + (acceptsConnections
          ? "nothing answers through it, so the SSH session behind it, or speech-dispatcher on your "
            + "own machine, is stopped or hung"
          : "it does not accept connections, so the SSH session behind it is stopped or hung")
        + "; end that session and log in again with \(howToForward), or set SPEECHD_ADDRESS."
    case .staleForward(let path, let removed):
      "announce found a speech-dispatcher socket forwarded over SSH at \(OneLine.escaped(path)), but nothing answers "
        + "there because the SSH session that forwarded it has ended"
        + (removed ? " (announce removed it)" : "")
        + "; log in again with \(howToForward), or set SPEECHD_ADDRESS."
    case .nothingForwarded(let forwardedPath, let local, let detail):
      "announce found no speech-dispatcher socket forwarded over SSH at \(OneLine.escaped(forwardedPath)) and could not "
        + "reach speech-dispatcher at \(local): \(Self.reason(in: detail)); forward the one on your own "
        + "machine with \(howToForward), or start speech-dispatcher here."
    }
  }

  /// "2 seconds", "1.5 seconds".
  static func seconds(_ duration: Duration) -> String {
    let (whole, fraction) = duration.components
    let tenths = fraction / 100_000_000_000_000_000
    return tenths == 0 ? "\(whole) second\(whole == 1 ? "" : "s")" : "\(whole).\(tenths) seconds"
  }

  /// The cause in libspeechd's "Can't connect to … : REASON. Autospawn: …" text, in lower case.
  static func reason(in detail: String) -> String {
    var text = OneLine.escaped(plain(detail))
    var spawnFailure: String?
    if let autospawn = text.firstRange(of: ". Autospawn: ") {
      let report = String(text[autospawn.upperBound...])
      text = String(text[..<autospawn.lowerBound])
      if report.hasPrefix("Autospawn failed") { spawnFailure = "and starting it failed" }
    }
    if text.hasPrefix("Can't connect"), let colon = text.ranges(of: ": ").last {
      text = String(text[colon.upperBound...])
    }
    if let first = text.first, text.dropFirst().first?.isLowercase ?? true {
      text = first.lowercased() + text.dropFirst()
    }
    return [text, spawnFailure].compactMap { $0 }.joined(separator: ", ")
  }

  private static func plain(_ detail: String) -> String {
    var text = detail.trimmingWhiteSpace
    if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
    while text.hasSuffix(".") { text.removeLast() }
    return text
  }
}
