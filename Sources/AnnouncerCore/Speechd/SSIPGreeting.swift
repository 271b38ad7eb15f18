import Glibc

/// Checks that whatever listens at an address speaks SSIP before libspeechd is let near it.
///
/// libspeechd 0.11.4 crashes (SIGSEGV) or calls `exit(1)` when the peer is not
/// speech-dispatcher, so announce first sends one harmless command on a socket of
/// its own and looks for an SSIP reply.
enum SSIPGreeting {
  /// What the check found.
  enum Finding: Equatable {
    /// Nothing accepted the connection; libspeechd may try to start the daemon.
    case nobodyListens
    /// speech-dispatcher answered.
    case speechDispatcher
    /// Something listens, but it said nothing within the bound. The kernel accepts a
    /// connection into the listen backlog for a daemon that is stopped (SIGSTOP) or
    /// frozen, so this is what such a daemon looks like until its backlog is full.
    case silent
    /// Something listens, but it took no connection within the bound: its backlog is full
    /// (a unix socket) or its accept queue is (TCP), because whatever should accept is
    /// stopped or hung.
    case notAccepting
    /// Something answered, but not in SSIP, or hung up at once.
    case somethingElse
    /// The host's name does not resolve, so there is nowhere to connect to.
    case nameDoesNotResolve
    /// Looking the host's name up took the whole bound.
    case lookupTookTooLong
  }

  /// How long the whole check may take, the goodbye included. speech-dispatcher
  /// answers in about a millisecond; the bound is for a loaded machine.
  static let replyBound: Duration = .seconds(2)

  /// What listens at `address`, all within `bound`: connecting, the reply, and the goodbye.
  static func check(_ address: SpeechdAddress, within bound: Duration = replyBound) -> Finding {
    let deadline = ContinuousClock.now + bound
    let conversation: SSIPConversation
    switch SSIPConversation.open(address, until: deadline) {
    case .success(let opened): conversation = opened
    case .failure(.notAccepting): return .notAccepting
    case .failure(.failed): return .nobodyListens
    case .failure(.nameDoesNotResolve): return .nameDoesNotResolve
    case .failure(.lookupTookTooLong): return .lookupTookTooLong
    }
    guard conversation.send("SET SELF CLIENT_NAME \"announce:announce:check\"") else { return .somethingElse }
    switch conversation.readReply(until: deadline) {
    case .silence: return .silent
    case .closed(let bytes) where bytes.isEmpty:
      // A hang-up: no goodbye is owed.
      return .somethingElse
    case .closed(let bytes), .lines(let bytes):
      guard SSIPConversation.isSuccess(bytes) else { return .somethingElse }
    }
    // Within what is left of the bound.
    conversation.quit(until: deadline)
    return .speechDispatcher
  }
}
