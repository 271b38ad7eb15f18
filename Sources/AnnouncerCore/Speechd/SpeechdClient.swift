import CSpeechd
import Dispatch
import FoundationEssentials
import Glibc

/// A threaded connection to speech-dispatcher through libspeechd.
///
/// It only relays: ``say(_:)`` sends one SSML message and returns its id,
/// and every BEGIN, END, CANCEL, PAUSE, RESUME and index-mark callback becomes
/// a ``SpeechEvent`` on ``events``. Deciding what the events mean is the job
/// of ``Announcer``.
///
/// libspeechd calls its callbacks on its own thread, which also carries the
/// protocol replies, so a callback only copies its arguments into a stream
/// (see `CallbackRouter`). Several libspeechd calls share static buffers across
/// connections, so every call into libspeechd, from every client in the process,
/// runs on one serial queue.
public final class SpeechdClient: SpeechBackend, @unchecked Sendable {
  /// Every event for this connection.
  public let events: AsyncStream<SpeechEvent>
  /// Where this client is connected, for messages to people.
  public let address: SpeechdAddress
  /// Whether ``address`` is a socket forwarded over SSH from the user's own machine.
  package let isForwardedOverSSH: Bool

  // Touched only on `Libspeechd.queue`.
  private var connection: UnsafeMutablePointer<SPDConnection>?
  private var settings = SettingsPlan()
  private let clientID: Int
  private let continuation: AsyncStream<SpeechEvent>.Continuation
  private let hangUpWatch: HangUpWatch?

  /// Connects to speech-dispatcher.
  ///
  /// - Parameters:
  ///   - address: an address in `SPEECHD_ADDRESS` syntax; `nil` uses `SPEECHD_ADDRESS`,
  ///     and without it the user's default socket, starting speech-dispatcher if it is not running.
  ///     Inside an SSH session, a socket forwarded to `ForwardedSpeechdSocket` comes first.
  ///   - environment: where `SPEECHD_ADDRESS`, `SSH_CONNECTION` and `XDG_RUNTIME_DIR` are read.
  ///   - appName: the client name speech-dispatcher shows for this connection.
  /// - Throws: ``SpeechdConnectError`` when the address is invalid, the daemon cannot be
  ///   reached, or it does not answer within 5 seconds.
  public static func connect(
    address: String? = nil, environment: [String: String], appName: String = "announce"
  ) async throws(SpeechdConnectError) -> SpeechdClient {
    try await SpeechdConnector.connect(address: address, environment: environment, appName: appName)
  }

  /// Takes an open connection; on the libspeechd queue.
  init(
    connection: UnsafeMutablePointer<SPDConnection>, clientID: Int, address: SpeechdAddress,
    isForwarded: Bool
  ) {
    self.connection = connection
    self.clientID = clientID
    self.address = address
    self.isForwardedOverSSH = isForwarded
    let (events, continuation) = AsyncStream.makeStream(of: SpeechEvent.self)
    self.events = events
    self.continuation = continuation
    CallbackRouter.install(on: connection, clientID: clientID, continuation)
    // One command turns every event on. spd_set_notification_on sends one command per
    // kind and another "all" after each: twelve round trips where one will do.
    spd_execute_command(connection, "SET SELF NOTIFICATION all on")
    spd_set_data_mode(connection, SPD_DATA_SSML)
    hangUpWatch = HangUpWatch(socket: connection.pointee.socket) { [continuation] in
      continuation.yield(.connectionLost)
    }
  }

  /// Sends one message and returns the id speech-dispatcher gave it.
  public func say(_ request: SpeechRequest) async throws(SpeechBackendError) -> MessageID {
    let result: Result<MessageID, SpeechBackendError> = await onLibspeechd { client in
      client.sendNow(request)
    }
    return try result.get()
  }

  /// Cancels every message of this connection that is speaking or waiting.
  public func cancelAll() async {
    await onLibspeechd { client in
      if let connection = client.connection { spd_cancel(connection) }
    }
  }

  /// Closes the connection and finishes ``events``.
  public func close() async {
    await onLibspeechd { client in client.closeNow() }
  }

  deinit {
    // `close()` normally ran already; this is the safety net. spd_close goes through the
    // same serial queue as every other libspeechd call, because libspeechd's static reply
    // buffers are shared by all connections and a close racing another client's call on
    // that queue would corrupt its reply. It is queued, not waited for: the last reference
    // may be dropped by a closure running on that very queue, where waiting would deadlock.
    hangUpWatch?.stop()
    CallbackRouter.unregister(clientID: clientID)
    if let connection {
      let closing = ConnectionToClose(connection)
      Libspeechd.queue.async { closing.close() }
    }
  }

  // MARK: On the libspeechd queue

  private func sendNow(_ request: SpeechRequest) -> Result<MessageID, SpeechBackendError> {
    guard let connection else {
      return .failure(SpeechBackendError("The connection to speech-dispatcher is closed."))
    }
    let document: String
    switch request.purpose {
    case .quietProbe:
      document = SSMLDocument.silent
    case .announcement:
      if let refused = applySettings(of: request.voice, on: connection) { return .failure(refused) }
      document =
        request.isSSML
        ? SSMLDocument.speaking(ssml: request.text, finalMark: SpeechRequest.finalMarkName)
        : SSMLDocument.speaking(
          plainText: request.text, marks: request.marks, finalMark: SpeechRequest.finalMarkName)
    }
    if let icon = request.soundIcon, request.purpose == .announcement, VoiceOptions.isSafeName(icon) {
      // At `message` priority the icon is not cancelled by the `text` that follows it:
      // the text waits until the icon has played.
      let iconPriority: SpeechPriority =
        request.priority == .important ? .important : .message
      spd_sound_icon(connection, iconPriority.cValue, icon)
    }
    let id = spd_say(connection, request.priority.cValue, document)
    return id > 0 ? .success(Int(id)) : .failure(notAccepted)
  }

  private var notAccepted: SpeechBackendError {
    SpeechBackendError("speech-dispatcher at \(address) did not accept the message.")
  }

  /// Makes the connection hold exactly the settings `voice` resolves to, as ``SettingsPlan``
  /// says; returns why not.
  private func applySettings(
    of voice: VoiceOptions, on connection: UnsafeMutablePointer<SPDConnection>
  ) -> SpeechBackendError? {
    let changes = settings.changes(for: voice) { LibspeechdSettings.read(of: connection) }
    for change in changes where !LibspeechdSettings.send(change, on: connection) {
      settings.refused()
      return SpeechBackendError(
        "speech-dispatcher at \(address) refused \(change.phrase); check the value, or its log in ~/.cache/speech-dispatcher/log."
      )
    }
    return nil
  }

  private func closeNow() {
    hangUpWatch?.stop()
    if let connection {
      ConnectionToClose(connection).close()
      self.connection = nil
    }
    CallbackRouter.unregister(clientID: clientID)
    continuation.finish()
  }

  private func onLibspeechd<T: Sendable>(
    _ body: @escaping @Sendable (SpeechdClient) -> T
  ) async
    -> T
  {
    await withCheckedContinuation { continuation in
      Libspeechd.queue.async { continuation.resume(returning: body(self)) }
    }
  }
}
