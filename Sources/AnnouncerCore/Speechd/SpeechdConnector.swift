import Glibc

/// Finds speech-dispatcher for a ``SpeechdClient`` and opens the connection.
///
/// It follows the ``SpeechdRoute`` (under SSH, a forwarded socket before the local one),
/// checks the peer with the ``SSIPGreeting`` before libspeechd is let near it, removes a
/// forwarded socket nobody listens on, and bounds the whole connection, since a stopped
/// daemon's backlog takes connections and answers nothing.
enum SpeechdConnector {
  /// How long connecting may take before speech-dispatcher counts as not answering.
  static let connectBound: Duration = .seconds(5)

  /// How long a forwarded socket may take to answer the first command before it counts as
  /// stale: well over an intercontinental round trip, and inside the 2 seconds promised.
  static let forwardedReplyBound: Duration = .milliseconds(1_500)

  /// Connects along the route for `address` and `environment`; see
  /// ``SpeechdClient/connect(address:environment:appName:)``.
  static func connect(
    address: String?, environment: [String: String], appName: String
  ) async throws(SpeechdConnectError) -> SpeechdClient {
    switch try SpeechdRoute.resolve(address, environment: environment) {
    case .address(let resolved):
      return try await connect(to: resolved, appName: appName)
    case .forwardedFirst(let path, let local):
      guard ForwardedSpeechdSocket.presence(at: path) == .ours else {
        do throws(SpeechdConnectError) {
          return try await connect(to: local, appName: appName)
        } catch {
          guard case .unreachable(_, let detail) = error else { throw error }
          throw .nothingForwarded(forwardedPath: path, local: local, detail: detail)
        }
      }
      do throws(SpeechdConnectError) {
        return try await connect(
          to: .unixSocket(path: path, isUserDefault: false), appName: appName,
          replyBound: forwardedReplyBound, isForwarded: true)
      } catch {
        // Nobody listening at all means a leftover file, which would also block the next
        // forward (sshd replaces it only with its own StreamLocalBindUnlink), so it goes.
        // A socket that accepts and then hangs up is a live sshd whose client cannot
        // reach its own daemon; it stays.
        let removed = ForwardedSpeechdSocket.isRefused(path) && unlink(path) == 0
        throw .staleForward(path: path, removed: removed)
      }
    }
  }

  /// Connects to exactly `resolved`.
  static func connect(
    to resolved: SpeechdAddress, appName: String,
    replyBound: Duration = SSIPGreeting.replyBound, isForwarded: Bool = false
  ) async throws(SpeechdConnectError) -> SpeechdClient {
    // One bound for the whole connection: the greeting spends at most `replyBound` of it,
    // libspeechd's own connecting the rest (it may have to start the daemon).
    let result = await Deadline.run(within: connectBound, on: Libspeechd.queue) {
      Result { () throws(SpeechdConnectError) in
        try open(resolved, appName: appName, replyBound: replyBound, isForwarded: isForwarded)
      }
    }
    guard let result else { throw .notAnswering(resolved, within: connectBound) }
    return try result.get()
  }

  /// The greeting, then libspeechd's connection; on ``Libspeechd/queue``.
  private static func open(
    _ address: SpeechdAddress, appName: String, replyBound: Duration, isForwarded: Bool
  ) throws(SpeechdConnectError) -> SpeechdClient {
    switch SSIPGreeting.check(address, within: replyBound) {
    case .somethingElse:
      throw .unreachable(
        address, detail: "something answered there, but it does not speak speech-dispatcher's protocol")
    case .silent:
      throw .notAnswering(address, within: replyBound)
    case .nobodyListens, .speechDispatcher:
      break
    }
    let (connection, clientID) = try Libspeechd.open(address, appName: appName)
    return SpeechdClient(
      connection: connection, clientID: clientID, address: address, isForwarded: isForwarded)
  }
}
