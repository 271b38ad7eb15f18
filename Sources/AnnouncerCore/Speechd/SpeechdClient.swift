import CSpeechd
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// A threaded connection to speech-dispatcher through libspeechd.
///
/// It only relays: ``say(_:)`` sends one SSML message and returns its id,
/// and every BEGIN, END, CANCEL, PAUSE, RESUME and index-mark callback becomes
/// a ``SpeechEvent`` on ``events``. Deciding what the events mean is the job
/// of ``Announcer``.
///
/// libspeechd calls its callbacks on its own thread, which also carries the
/// protocol replies, so a callback only copies its arguments into a stream.
/// Several libspeechd calls share static buffers across connections, so every
/// call into libspeechd, from every client in the process, runs on one serial
/// queue.
public final class SpeechdClient: SpeechBackend, @unchecked Sendable {
  /// Every event for this connection.
  public let events: AsyncStream<SpeechEvent>
  /// Where this client is connected, for messages to people.
  public let address: SpeechdAddress
  /// Whether ``address`` is a socket forwarded over SSH from the user's own machine.
  public let isForwardedOverSSH: Bool

  // Touched only on `Self.libspeechd`.
  private var connection: UnsafeMutablePointer<SPDConnection>?
  /// What the connection held when it was opened, the value of every setting a message
  /// leaves out; read from the daemon the first time it is needed, before anything is set.
  private var openingSettings: ConnectionSettings?
  /// What the connection holds now.
  private var held = HeldSettings.asOpened
  private let clientID: Int
  private let continuation: AsyncStream<SpeechEvent>.Continuation
  private let hangUpWatch: HangUpWatch?

  /// The one queue on which this process calls into libspeechd.
  private static let libspeechd = DispatchQueue(label: "announce.libspeechd")
  fileprivate static var libspeechdQueue: DispatchQueue { libspeechd }

  /// How long connecting may take before speech-dispatcher counts as not answering.
  public static let connectBound: Duration = .seconds(5)

  /// Connects to speech-dispatcher.
  ///
  /// - Parameters:
  ///   - address: an address in `SPEECHD_ADDRESS` syntax; `nil` uses `SPEECHD_ADDRESS`,
  ///     and without it the user's default socket, starting speech-dispatcher if it is not running.
  ///     Inside an SSH session, a socket forwarded to `ForwardedSpeechdSocket` comes first.
  ///   - environment: where `SPEECHD_ADDRESS`, `SSH_CONNECTION` and `XDG_RUNTIME_DIR` are read.
  ///   - appName: the client name speech-dispatcher shows for this connection.
  /// - Throws: ``SpeechdConnectError`` when the address is invalid, the daemon cannot be
  ///   reached, or it does not answer within ``connectBound``.
  public static func connect(
    address: String? = nil, environment: [String: String], appName: String = "announce"
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

  /// How long a forwarded socket may take to answer the first command before it counts as
  /// stale: well over an intercontinental round trip, and inside the 2 seconds promised.
  static let forwardedReplyBound: Duration = .milliseconds(1_500)

  /// Connects to exactly `address`.
  static func connect(
    to resolved: SpeechdAddress, appName: String,
    replyBound: Duration = SSIPGreeting.replyBound, isForwarded: Bool = false
  ) async throws(SpeechdConnectError) -> SpeechdClient {
    // One bound for the whole connection: the greeting spends at most `replyBound` of it,
    // libspeechd's own connecting the rest (it may have to start the daemon).
    let result = await Deadline.run(within: connectBound, on: libspeechd) {
      Result { () throws(SpeechdConnectError) in
        try open(resolved, appName: appName, replyBound: replyBound, isForwarded: isForwarded)
      }
    }
    guard let result else { throw .notAnswering(resolved, within: connectBound) }
    return try result.get()
  }

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
    guard let cAddress = address.makeCAddress() else {
      throw .unreachable(address, detail: "out of memory")
    }
    defer { SPDConnectionAddress__free(cAddress) }
    var error: UnsafeMutablePointer<CChar>?
    let autospawn: Int32 = address.isUserDefault ? 1 : 0
    guard
      let connection = spd_open2(
        appName, "main", nil, SPD_MODE_THREADED, cAddress, autospawn, &error)
    else {
      let detail = error.map { String(cString: $0) } ?? "unknown error"
      free(error)
      throw .unreachable(address, detail: detail)
    }
    let clientID = Int(spd_get_client_id(connection))
    guard clientID > 0 else {
      spd_close(connection)
      throw .unreachable(address, detail: "it did not answer")
    }
    return SpeechdClient(
      connection: connection, clientID: clientID, address: address, isForwarded: isForwarded)
  }

  /// The settings a new connection holds: the daemon's defaults, including the user's
  /// `DefaultRate`, `DefaultModule` and the like. A value the daemon does not report
  /// keeps speech-dispatcher's built-in default.
  private static func readSettings(
    of connection: UnsafeMutablePointer<SPDConnection>
  )
    -> ConnectionSettings
  {
    var settings = ConnectionSettings()
    func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
      guard let pointer else { return nil }
      defer { free(pointer) }
      let value = String(cString: pointer)
      return value.isEmpty ? nil : value
    }
    if let module = text(spd_get_output_module(connection)) { settings.outputModule = module }
    if let language = text(spd_get_language(connection)) { settings.language = language }
    settings.voiceType = VoiceOptions.VoiceType(spd_get_voice_type(connection))
    // The getters return the value, or -1 on failure; -1 is also a valid level, which a
    // daemon configured that way reports as the same -1, so nothing is lost.
    settings.rate = Int(spd_get_voice_rate(connection))
    settings.pitch = Int(spd_get_voice_pitch(connection))
    settings.volume = Int(spd_get_volume(connection))
    // libspeechd has no getter for the punctuation level, but SSIP answers `GET punctuation`.
    var reply: UnsafeMutablePointer<CChar>?
    if spd_execute_command_with_reply(connection, "GET punctuation", &reply) == 0, let reply {
      let lines = String(cString: reply).split(whereSeparator: \.isNewline)
      free(reply)
      settings.punctuation =
        lines.lazy.compactMap { line in
          line.hasPrefix("251-") ? VoiceOptions.Punctuation(rawValue: String(line.dropFirst(4))) : nil
        }.first
    } else {
      free(reply)
    }
    return settings
  }

  private init(
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
    CallbackRouter.register(clientID: clientID, continuation)
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
      let name = mark.map { String(cString: $0) } ?? ""
      CallbackRouter.forward(.indexMark(Int(id), name: name), clientID: Int(client))
    }
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

  /// The output modules speech-dispatcher offers, such as `espeak-ng`.
  public func outputModules() async -> [String] {
    await onLibspeechd { client in
      guard let connection = client.connection, let list = spd_list_modules(connection) else {
        return []
      }
      defer { free_spd_modules(list) }
      return Self.strings(in: list)
    }
  }

  /// The synthesis voices of `module` (or the daemon's default one) for `language` (or all
  /// languages); empty when they cannot be listed within ``voiceListBound``.
  public func synthesisVoices(module: String?, language: String?) async -> [SynthesisVoice] {
    let address = self.address
    // On the libspeechd queue, so that the blocking read holds no thread of Swift's pool.
    let voices = await onLibspeechd { _ in Self.listVoices(at: address, module: module) }
    return voices.filter { voice in language.map(voice.speaks) ?? true }
  }

  /// How long listing voices may take; espeak-ng's 13,362 take about 0.3 s.
  static let voiceListBound: Duration = .seconds(10)

  /// Lists voices on a connection of announce's own: libspeechd would read the 330 KB
  /// reply one byte at a time (see ``SSIPConversation``), and setting the module for the
  /// list on this connection would cost the next message a `SET` of every setting.
  /// speech-dispatcher 0.11.4 ignores a language given to `LIST SYNTHESIS_VOICES` and
  /// lists them all, so the caller filters.
  private static func listVoices(at address: SpeechdAddress, module: String?) -> [SynthesisVoice] {
    let deadline = ContinuousClock.now + voiceListBound
    guard case .success(let conversation) = SSIPConversation.open(address) else { return [] }
    func succeeds(_ command: String) -> Bool {
      guard conversation.send(command), case .lines(let reply) = conversation.readReply(until: deadline)
      else {
        return false
      }
      return SSIPConversation.isSuccess(reply)
    }
    guard succeeds("SET SELF CLIENT_NAME \"announce:announce:voices\"") else { return [] }
    if let module {
      guard VoiceOptions.isSafeName(module), succeeds("SET SELF OUTPUT_MODULE \(module)") else { return [] }
    }
    guard conversation.send("LIST SYNTHESIS_VOICES"),
      case .lines(let list) = conversation.readReply(until: deadline, limit: 64 << 20)
    else { return [] }
    conversation.quit(until: deadline)
    return SynthesisVoice.parseList(String(decoding: list, as: UTF8.self))
  }

  /// Cancels every message of this connection that is speaking or waiting.
  public func cancelAll() async {
    await onLibspeechd { client in
      if let connection = client.connection { spd_cancel(connection) }
    }
  }

  /// The connection's socket, for tests that watch when it is closed.
  package func socketDescriptor() async -> Int32? {
    await onLibspeechd { client in client.connection?.pointee.socket }
  }

  /// Runs `body` on the queue of every libspeechd call, for tests that hold that queue.
  package static func enqueueOnLibspeechdQueue(_ body: @escaping @Sendable () -> Void) {
    libspeechd.async(execute: body)
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
      Self.libspeechd.async { closing.close() }
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

  private static func strings(in list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String] {
    var result: [String] = []
    var index = 0
    while let item = list[index] {
      result.append(String(cString: item))
      index += 1
    }
    return result
  }

  /// Makes the connection hold exactly the settings `voice` resolves to; returns why not.
  private func applySettings(
    of voice: VoiceOptions, on connection: UnsafeMutablePointer<SPDConnection>
  ) -> SpeechBackendError? {
    guard held.needsDefaults(for: voice) else { return nil }
    let defaults = defaults(of: connection)
    let target = defaults.resolving(voice)
    let current = held.settings(defaults: defaults)
    for change in target.changes(from: current) where !Self.send(change, on: connection) {
      held = .unknown
      return SpeechBackendError(
        "speech-dispatcher at \(address) refused \(change.phrase); check the value, or its log in ~/.cache/speech-dispatcher/log."
      )
    }
    held = .known(target)
    return nil
  }

  /// The settings the connection held when it was opened, read once; to be asked before
  /// anything is set on the connection.
  private func defaults(of connection: UnsafeMutablePointer<SPDConnection>) -> ConnectionSettings {
    if let openingSettings { return openingSettings }
    let read = Self.readSettings(of: connection)
    openingSettings = read
    return read
  }

  /// Sends one `SET`; `true` when speech-dispatcher accepted it.
  private static func send(
    _ change: SettingChange, on connection: UnsafeMutablePointer<SPDConnection>
  )
    -> Bool
  {
    // Names go into protocol lines verbatim, so an unsafe one is refused here.
    func named(_ name: String, _ set: (String) -> Int32) -> Bool {
      VoiceOptions.isSafeName(name) && set(name) == 0
    }
    switch change {
    case .outputModule(let name): return named(name) { spd_set_output_module(connection, $0) }
    case .language(let tag): return named(tag) { spd_set_language(connection, $0) }
    case .voiceType(let type): return spd_set_voice_type(connection, type.cValue) == 0
    case .voiceName(let name): return named(name) { spd_set_synthesis_voice(connection, $0) }
    case .rate(let value): return spd_set_voice_rate(connection, Int32(value)) == 0
    case .pitch(let value): return spd_set_voice_pitch(connection, Int32(value)) == 0
    case .volume(let value): return spd_set_volume(connection, Int32(value)) == 0
    case .pitchRange(let value): return spd_set_voice_pitch_range(connection, Int32(value)) == 0
    case .punctuation(let level): return spd_set_punctuation(connection, level.cValue) == 0
    case .spelling(let on): return spd_set_spelling(connection, on ? SPD_SPELL_ON : SPD_SPELL_OFF) == 0
    }
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
      Self.libspeechd.async { continuation.resume(returning: body(self)) }
    }
  }
}

extension SpeechdClient: VoiceListing {
  /// The output module the connection had when it was opened.
  package func defaultOutputModule() async -> String {
    await onLibspeechd { client in
      guard let connection = client.connection else { return ConnectionSettings().outputModule }
      return client.defaults(of: connection).outputModule
    }
  }
}

/// A connection on its way to `spd_close`, which must run on ``SpeechdClient``'s libspeechd queue.
private struct ConnectionToClose: @unchecked Sendable {
  let connection: UnsafeMutablePointer<SPDConnection>

  init(_ connection: UnsafeMutablePointer<SPDConnection>) { self.connection = connection }

  func close() {
    dispatchPrecondition(condition: .onQueue(SpeechdClient.libspeechdQueue))
    spd_close(connection)
  }
}

/// A voice speech-dispatcher can speak with.
public struct SynthesisVoice: Sendable, Equatable {
  /// The name to pass to `--voice`.
  public var name: String
  /// Its language tag.
  public var language: String
  /// Its variant, or `none`.
  public var variant: String

  /// Whether the voice speaks `wanted`: its language, ignoring case, or a more or less
  /// specific form of it (`en` for a voice of `en-US`, `de-AT` for a voice of `de`).
  package func speaks(_ wanted: String) -> Bool {
    let (available, wanted) = (language.lowercased(), wanted.lowercased())
    return available == wanted || available.hasPrefix(wanted + "-") || wanted.hasPrefix(available + "-")
  }

  /// The voices in a reply to SSIP's `LIST SYNTHESIS_VOICES`: lines of
  /// `249-name<TAB>language<TAB>variant`, ended by `249 OK VOICE LIST SENT`.
  static func parseList(_ reply: String) -> [SynthesisVoice] {
    reply.split(whereSeparator: \.isNewline).compactMap { line in
      guard line.hasPrefix("249-") else { return nil }
      let fields = line.dropFirst(4).split(separator: "\t", omittingEmptySubsequences: false)
      guard let name = fields.first, !name.isEmpty else { return nil }
      return SynthesisVoice(
        name: String(name), language: fields.count > 1 ? String(fields[1]) : "",
        variant: fields.count > 2 ? String(fields[2]) : "")
    }
  }
}

/// Routes libspeechd's callbacks, which carry no context, to the client they belong to.
///
/// The callbacks give only a message id and a client id; the client id picks the
/// stream. Events for a client id we do not know (a closed connection's leftovers)
/// are dropped.
private enum CallbackRouter {
  private static let sinks = Mutex<[Int: AsyncStream<SpeechEvent>.Continuation]>([:])

  static func register(clientID: Int, _ continuation: AsyncStream<SpeechEvent>.Continuation) {
    sinks.withLock { $0[clientID] = continuation }
  }

  static func unregister(clientID: Int) {
    sinks.withLock { $0[clientID] = nil }
  }

  static func forward(_ event: SpeechEvent, clientID: Int) {
    sinks.withLock { _ = $0[clientID]?.yield(event) }
  }
}

extension SpeechPriority {
  fileprivate var cValue: SPDPriority {
    switch self {
    case .important: SPD_IMPORTANT
    case .message: SPD_MESSAGE
    case .text: SPD_TEXT
    case .notification: SPD_NOTIFICATION
    case .progress: SPD_PROGRESS
    }
  }
}

extension VoiceOptions.VoiceType {
  fileprivate init?(_ value: SPDVoiceType) {
    let all: [VoiceOptions.VoiceType] = Self.allCases
    guard let match = all.first(where: { $0.cValue == value }) else { return nil }
    self = match
  }

  fileprivate var cValue: SPDVoiceType {
    switch self {
    case .male1: SPD_MALE1
    case .male2: SPD_MALE2
    case .male3: SPD_MALE3
    case .female1: SPD_FEMALE1
    case .female2: SPD_FEMALE2
    case .female3: SPD_FEMALE3
    case .childMale: SPD_CHILD_MALE
    case .childFemale: SPD_CHILD_FEMALE
    }
  }
}

extension VoiceOptions.Punctuation {
  fileprivate var cValue: SPDPunctuation {
    switch self {
    case .none: SPD_PUNCT_NONE
    case .some: SPD_PUNCT_SOME
    case .most: SPD_PUNCT_MOST
    case .all: SPD_PUNCT_ALL
    }
  }
}
