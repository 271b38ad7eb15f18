import CSpeechd
import Synchronization

/// Routes libspeechd's callbacks, which carry no context, to the client they belong to.
///
/// libspeechd calls them on its own thread, which also carries the protocol replies, so a
/// callback only copies its arguments and yields them: it must not block, and must not call
/// any `spd_*` function (that would deadlock). The callbacks give only a message id and a
/// client id; the client id picks the stream. Events for a client id we do not know (a
/// closed connection's leftovers) are dropped.
enum CallbackRouter {
  private static let sinks = Mutex<[Int: AsyncStream<SpeechEvent>.Continuation]>([:])

  /// Sends every event of `connection`, whose client id is `clientID`, to `continuation`.
  static func install(
    on connection: UnsafeMutablePointer<SPDConnection>, clientID: Int,
    _ continuation: AsyncStream<SpeechEvent>.Continuation
  ) {
    sinks.withLock { $0[clientID] = continuation }
    connection.pointee.callback_begin = { id, client, _ in
      CallbackRouter.forward(.began(Int(id)), clientID: Int(client))
    }
    connection.pointee.callback_end = { id, client, _ in
      CallbackRouter.forward(.ended(Int(id)), clientID: Int(client))
    }
    connection.pointee.callback_cancel = { id, client, _ in
      CallbackRouter.forward(.cancelled(Int(id)), clientID: Int(client))
    }
    connection.pointee.callback_pause = { id, client, _ in
      CallbackRouter.forward(.paused(Int(id)), clientID: Int(client))
    }
    connection.pointee.callback_resume = { id, client, _ in
      CallbackRouter.forward(.resumed(Int(id)), clientID: Int(client))
    }
    connection.pointee.callback_im = { id, client, _, mark in
      // The mark's string is freed when the callback returns, so it is copied now.
      let name = mark.map { String(cString: $0) } ?? ""
      CallbackRouter.forward(.indexMark(Int(id), name: name), clientID: Int(client))
    }
  }

  /// Drops the events of `clientID` from now on.
  static func unregister(clientID: Int) {
    sinks.withLock { $0[clientID] = nil }
  }

  private static func forward(_ event: SpeechEvent, clientID: Int) {
    sinks.withLock { _ = $0[clientID]?.yield(event) }
  }
}
