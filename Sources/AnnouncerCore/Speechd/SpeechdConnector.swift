import Dispatch
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
  /// hung: well over an intercontinental round trip, and inside the 2 seconds promised.
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
        switch error {
        case .notAccepting: throw .forwardHung(path: path, acceptsConnections: false)
        case .notAnswering: throw .forwardHung(path: path, acceptsConnections: true)
        default:
          // Nobody listening at all means a leftover file, which would also block the next
          // forward (sshd replaces it only with its own StreamLocalBindUnlink), so it goes.
          // A socket that accepts and then hangs up is a live sshd whose client cannot
          // reach its own daemon; it stays.
          let removed = ForwardedSpeechdSocket.listener(at: path) == .refused && unlink(path) == 0
          throw .staleForward(path: path, removed: removed)
        }
      }
    }
  }

  /// Connects to exactly `resolved`, within ``connectBound`` whatever listens there.
  ///
  /// The greeting comes first, on a queue of its own rather than libspeechd's, so that it
  /// never waits behind a libspeechd call an earlier attempt left blocked: it connects
  /// without blocking and is bounded by `replyBound`. Only when it found speech-dispatcher,
  /// or nothing at all (when libspeechd may start the daemon), is libspeechd let connect,
  /// with a blocking `connect()` of its own, on its queue. Both run in one bounded piece
  /// of work, with no hop through Swift's threads between them, so the bound holds even
  /// when those threads are busy.
  static func connect(
    to resolved: SpeechdAddress, appName: String,
    replyBound: Duration = SSIPGreeting.replyBound, isForwarded: Bool = false
  ) async throws(SpeechdConnectError) -> SpeechdClient {
    let result = await Race.within(connectBound, on: DispatchQueue(label: "announce.greeting")) {
      Result { () throws(SpeechdConnectError) in
        switch SSIPGreeting.check(resolved, within: replyBound) {
        case .somethingElse:
          throw .unreachable(
            resolved,
            detail: "something answered there, but it does not speak speech-dispatcher's protocol")
        case .silent:
          throw .notAnswering(resolved, within: replyBound)
        case .notAccepting:
          throw .notAccepting(resolved, within: replyBound)
        case .nameDoesNotResolve:
          throw .nameDoesNotResolve(resolved)
        case .lookupTookTooLong:
          throw .lookupTookTooLong(resolved, within: replyBound)
        case .nobodyListens, .speechDispatcher:
          break
        }
        return try Libspeechd.queue.sync {
          Result { () throws(SpeechdConnectError) in
            let (connection, clientID) = try Libspeechd.open(resolved, appName: appName)
            return SpeechdClient(
              connection: connection, clientID: clientID, address: resolved, isForwarded: isForwarded)
          }
        }.get()
      }
    }
    guard let result else { throw .notAnswering(resolved, within: connectBound) }
    return try result.get()
  }
}
