import Dispatch

/// speech-dispatcher's output modules, their voices, and the module it speaks with by
/// default, each read on a connection of announce's own.
///
/// libspeechd would read the 330 KB voice list one byte at a time (see `SSIPConversation`),
/// and setting the module for the list on the speaking connection would cost the next
/// message a `SET` of every setting. libspeechd would also wait for ever on a daemon that
/// stops answering; a list here is cut short after ``silenceBound`` without a byte, and
/// that is an error, never a shorter list.
public struct SpeechdLists: Sendable {
  /// Where speech-dispatcher listens.
  public let address: SpeechdAddress
  /// How long speech-dispatcher may say nothing while a list is read before it counts as
  /// not answering: the 2 seconds an unanswered message is given when speaking. espeak-ng's
  /// 13,362 voices (330 KB) arrive whole in about 0.3 s, so a daemon that answers never
  /// comes near it.
  public let silenceBound: Duration

  /// The lists of the daemon at `address`.
  public init(address: SpeechdAddress, silenceBound: Duration = .seconds(2)) {
    self.address = address
    self.silenceBound = silenceBound
  }

  /// The module a message that names none is spoken with: what a new connection holds,
  /// as the speaking connection did when it was opened.
  ///
  /// - Throws: ``SpeechdConnectError`` when speech-dispatcher does not answer within
  ///   ``silenceBound`` or cannot be reached.
  public func defaultOutputModule() async throws(SpeechdConnectError) -> String {
    try await read { listing throws(SpeechdConnectError) in
      let reply = try listing.ask("GET OUTPUT_MODULE")
      return SSIPListing.values(in: reply).first ?? ConnectionSettings().outputModule
    }
  }

  /// The output modules, such as `espeak-ng`.
  ///
  /// - Throws: ``SpeechdConnectError`` when speech-dispatcher does not answer within
  ///   ``silenceBound`` or cannot be reached.
  public func outputModules() async throws(SpeechdConnectError) -> [String] {
    try await read { listing throws(SpeechdConnectError) in
      SSIPListing.values(in: try listing.ask("LIST OUTPUT_MODULES"))
    }
  }

  /// The voices of `module`, or of the daemon's default module; empty when the module
  /// lists none (generic modules list none) or cannot be chosen.
  ///
  /// speech-dispatcher 0.11.4 ignores a language given to `LIST SYNTHESIS_VOICES` and
  /// lists them all, so the caller filters.
  ///
  /// - Throws: ``SpeechdConnectError`` when speech-dispatcher does not answer within
  ///   ``silenceBound`` or cannot be reached.
  public func synthesisVoices(module: String?) async throws(SpeechdConnectError) -> [SynthesisVoice] {
    try await read { listing throws(SpeechdConnectError) in
      try SSIPListing.voices(on: listing, module: module)
    }
  }

  /// Opens a conversation, runs `body` on it, and says goodbye; on a Dispatch thread,
  /// since the reads block and must not hold one of Swift's few pool threads.
  private func read<T: Sendable>(
    _ body: @escaping @Sendable (SSIPListing) throws(SpeechdConnectError) -> T
  ) async throws(SpeechdConnectError) -> T {
    let (address, bound) = (address, silenceBound)
    let result: Result<T, SpeechdConnectError> = await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          returning: Result { () throws(SpeechdConnectError) in
            let listing = try SSIPListing.open(address, silenceBound: bound)
            let value = try body(listing)
            listing.quit()
            return value
          })
      }
    }
    return try result.get()
  }
}

extension SpeechdLists: VoiceListing {}

/// One conversation that reads speech-dispatcher's lists, each reply bounded by silence.
struct SSIPListing {
  private let conversation: SSIPConversation
  private let address: SpeechdAddress
  private let silenceBound: Duration

  /// Takes a conversation with `address`, already connected; for tests.
  init(_ conversation: SSIPConversation, address: SpeechdAddress, silenceBound: Duration) {
    self.conversation = conversation
    self.address = address
    self.silenceBound = silenceBound
  }

  /// Connects to `address` and names the connection, so the daemon's log tells it apart.
  static func open(
    _ address: SpeechdAddress, silenceBound: Duration
  ) throws(SpeechdConnectError) -> SSIPListing {
    switch SSIPConversation.open(address, until: .now + silenceBound) {
    case .success(let conversation):
      let listing = SSIPListing(conversation, address: address, silenceBound: silenceBound)
      guard SSIPConversation.isSuccess(try listing.ask("SET SELF CLIENT_NAME \"announce:announce:voices\""))
      else {
        throw .unreachable(address, detail: "it no longer speaks speech-dispatcher's protocol")
      }
      return listing
    case .failure(.notAccepting):
      throw .notAccepting(address, within: silenceBound)
    case .failure(.failed):
      throw .unreachable(address, detail: "nothing listens there any more")
    case .failure(.nameDoesNotResolve):
      throw .nameDoesNotResolve(address)
    case .failure(.lookupTookTooLong):
      throw .lookupTookTooLong(address, within: silenceBound)
    }
  }

  /// The voices of `module` (the connection's default one when `nil`); empty when the
  /// module cannot be chosen or lists none.
  static func voices(on listing: SSIPListing, module: String?) throws(SpeechdConnectError) -> [SynthesisVoice]
  {
    if let module {
      guard VoiceOptions.isSafeName(module),
        SSIPConversation.isSuccess(try listing.ask("SET SELF OUTPUT_MODULE \(module)"))
      else { return [] }
    }
    let list = try listing.ask("LIST SYNTHESIS_VOICES", limit: 64 << 20)
    return SynthesisVoice.parseList(String(decoding: list, as: UTF8.self))
  }

  /// Sends `command` and returns the whole reply.
  ///
  /// - Throws: ``SpeechdConnectError/notAnswering(_:within:)`` when the daemon goes silent
  ///   for ``silenceBound``, even in the middle of a reply, and
  ///   ``SpeechdConnectError/unreachable(_:detail:)`` when it hangs up.
  func ask(_ command: String, limit: Int = 4096) throws(SpeechdConnectError) -> [UInt8] {
    guard conversation.send(command) else { throw .unreachable(address, detail: "it closed the connection") }
    switch conversation.readReply(until: .now + silenceBound, limit: limit, movedOnBy: silenceBound) {
    case .lines(let reply): return reply
    case .closed: throw .unreachable(address, detail: "it closed the connection")
    case .silence: throw .notAnswering(address, within: silenceBound)
    }
  }

  /// Says goodbye, waiting at most ``silenceBound`` for the answer.
  func quit() { conversation.quit(until: .now + silenceBound) }

  /// The values of a successful SSIP reply of several lines, such as `250-espeak-ng`
  /// (`LIST OUTPUT_MODULES`) or `251-espeak-ng` (`GET OUTPUT_MODULE`): each `ddd-` line
  /// without its code. An error reply has none.
  static func values(in reply: [UInt8]) -> [String] {
    guard SSIPConversation.isSuccess(reply) else { return [] }
    return String(decoding: reply, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
      let code = line.prefix(4)
      guard code.count == 4, code.last == "-" else { return nil }
      let value = line.dropFirst(4)
      return value.isEmpty ? nil : String(value)
    }
  }
}
