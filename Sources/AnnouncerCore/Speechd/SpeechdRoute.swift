import Glibc

/// Where announce looks for speech-dispatcher, worked out from the command line and the environment.
///
/// Inside an SSH session (`SSH_CONNECTION` is set) with no address given, the daemon on the
/// user's own machine may have been forwarded to a conventional socket on the server
/// (see ``ForwardedSpeechdSocket``); that one is tried before the server's own default.
package enum SpeechdRoute: Sendable, Equatable {
  /// Exactly this address.
  case address(SpeechdAddress)
  /// The forwarded socket at `path` if one is there, else `local`.
  case forwardedFirst(path: String, local: SpeechdAddress)

  /// The route for an address given `explicit`ly and `environment`; `userID` names the
  /// forwarded socket when there is no runtime directory.
  package static func resolve(
    _ explicit: String?, environment: [String: String], userID: UInt32 = getuid()
  ) throws(SpeechdConnectError) -> SpeechdRoute {
    let address = try SpeechdAddress.resolve(explicit, environment: environment)
    guard address.isUserDefault, let session = environment["SSH_CONNECTION"], !session.isEmpty
    else { return .address(address) }
    return .forwardedFirst(
      path: ForwardedSpeechdSocket.path(environment: environment, userID: userID), local: address)
  }
}

/// The conventional place on a server for a speech-dispatcher socket forwarded from the
/// user's own machine with OpenSSH's `RemoteForward`.
///
/// The socket sits directly in the runtime directory, not in a directory of its own,
/// because sshd does not create missing directories: a forward to a path whose
/// directory is missing fails, with only a warning on the client.
package enum ForwardedSpeechdSocket {
  /// The socket's file name in `XDG_RUNTIME_DIR`.
  package static let fileName = "announce-speechd.sock"

  /// `$XDG_RUNTIME_DIR/announce-speechd.sock`, or `/tmp/announce-speechd-UID.sock`
  /// when there is no runtime directory.
  package static func path(environment: [String: String], userID: UInt32) -> String {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return runtime + "/" + fileName
    }
    return "/tmp/announce-speechd-\(userID).sock"
  }

  /// The runtime directory systemd gives user `userID` on a server, where the forward should point.
  package static func serverPath(userID: UInt32) -> String {
    "/run/user/\(userID)/" + fileName
  }

  /// What is at a forwarded socket's path.
  package enum Presence: Equatable {
    /// Nothing: no forward was made.
    case absent
    /// A socket of this user's.
    case ours
    /// Something else, or another user's socket, which announce must not talk to.
    case foreign
  }

  /// What is at `path`; only a socket owned by `userID` counts as a forward.
  package static func presence(at path: String, userID: UInt32 = geteuid()) -> Presence {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .absent }
    let isSocket = (info.st_mode & S_IFMT) == S_IFSOCK
    return isSocket && info.st_uid == userID ? .ours : .foreign
  }

  /// What listens at a forwarded socket.
  package enum Listener: Equatable {
    /// Nothing: the connection is refused, so the file is a leftover of a session that ended.
    case refused
    /// Something listens but took no connection within the bound: the SSH session behind
    /// the socket is stopped or hung.
    case notAccepting
    /// The connection was taken, or failed for a reason that says nothing of the session
    /// behind the socket (a path too long to connect to).
    case accepts
  }

  /// How long ``listener(at:within:)`` waits by default for a connection to be taken: a
  /// live sshd takes one at once, and this leaves room for a loaded machine while keeping
  /// a run that checks it within its 5 seconds.
  package static let listenerBound: Duration = .seconds(1)

  /// What listens at the socket at `path`, found by connecting within `bound`.
  package static func listener(at path: String, within bound: Duration = listenerBound) -> Listener {
    switch BoundedConnect.connect(toPath: path, until: .now + bound) {
    case .success(let socket):
      close(socket)
      return .accepts
    case .failure(.notAccepting): return .notAccepting
    case .failure(.failed(let code)): return code == ECONNREFUSED ? .refused : .accepts
    // A path has no name to look up.
    case .failure(.nameDoesNotResolve), .failure(.lookupTookTooLong): return .accepts
    }
  }
}
