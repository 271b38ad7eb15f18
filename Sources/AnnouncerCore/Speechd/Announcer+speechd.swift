import FoundationEssentials

extension Announcer {
  /// The words after the address in ``speechService`` when speech goes over an SSH
  /// forward, which the command says in the user's language.
  package static let forwardedOverSSH = ", forwarded over SSH from your own machine"

  /// Connects to speech-dispatcher and returns an announcer that speaks through it.
  ///
  /// This is ``SpeechdSpeaker/connect(address:appName:defaultTimeout:maxWaiting:environment:whenTurnsUnavailable:summaryWording:)``
  /// without the daemon's lists of modules and voices; see there for the parameters.
  ///
  /// - Throws: ``SpeechdConnectError`` with a sentence for people when no connection can be made.
  public static func speechd(
    address: String? = nil, appName: String = "announce",
    defaultTimeout: Duration = Announcement.defaultRetryTimeout, maxWaiting: Int? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    whenTurnsUnavailable: (TurnsUnavailable) -> Void = { _ in }
  ) async throws(SpeechdConnectError) -> Announcer {
    try await SpeechdSpeaker.connect(
      address: address, appName: appName, defaultTimeout: defaultTimeout, maxWaiting: maxWaiting,
      environment: environment, whenTurnsUnavailable: whenTurnsUnavailable
    ).announcer
  }
}

/// An announcer that speaks through speech-dispatcher, and that daemon's lists of output
/// modules and voices, for checking names before they are spoken.
///
/// The two are made together here, so that the announcer, which knows nothing of
/// speech-dispatcher, never has to be asked for its backend's lists.
public struct SpeechdSpeaker: Sendable {
  /// Speaks the announcements.
  public let announcer: Announcer
  /// The lists of the daemon the announcer speaks to.
  public let lists: SpeechdLists

  /// Connects to speech-dispatcher.
  ///
  /// The announcer is the one the `announce` command uses: when speech-dispatcher goes
  /// away it connects again and retries within each announcement's window, and it takes
  /// turns with the user's other announcers speaking to the same daemon, so that none
  /// cuts another off.
  ///
  /// - Parameters:
  ///   - address: a `SPEECHD_ADDRESS`-style address; `nil` uses `SPEECHD_ADDRESS`, then, under
  ///     SSH, a socket forwarded from the user's own machine, then the user's default socket.
  ///   - appName: the client name speech-dispatcher shows.
  ///   - defaultTimeout: the retry window for announcements that give none.
  ///   - maxWaiting: turns on flood control; see ``Announcer/init(backend:clock:defaultTimeout:timing:maxWaiting:turns:summaryWording:)``.
  ///   - environment: where `SPEECHD_ADDRESS`, `SSH_CONNECTION` and `XDG_RUNTIME_DIR` are read.
  ///   - whenTurnsUnavailable: called once when turns cannot be taken (the directory of
  ///     the turns is not a private one of ours); the announcer then speaks without them.
  ///   - summaryWording: the words of flood control's summary; English by default.
  /// - Throws: ``SpeechdConnectError`` with a sentence for people when no connection can be made.
  public static func connect(
    address: String? = nil, appName: String = "announce",
    defaultTimeout: Duration = Announcement.defaultRetryTimeout, maxWaiting: Int? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    whenTurnsUnavailable: (TurnsUnavailable) -> Void = { _ in },
    summaryWording: SummaryWording = .english
  ) async throws(SpeechdConnectError) -> SpeechdSpeaker {
    // Turns are ordered by when each process started, so the moment is taken before connecting.
    let startedAt = SharedSpeakingTurns.wallClockNow()
    let backend = try await ReconnectingSpeechdBackend.connect(
      address: address, environment: environment, appName: appName)
    var turns: any SpeakingTurns = AlwaysYourTurn()
    switch SharedSpeakingTurns.forUser(
      address: backend.address.description, environment: environment, since: startedAt)
    {
    case .success(let shared): turns = shared
    case .failure(let unavailable): whenTurnsUnavailable(unavailable)
    }
    let announcer = Announcer(
      backend: backend, clock: ContinuousClock(), defaultTimeout: defaultTimeout,
      timing: AnnouncerTiming(), maxWaiting: maxWaiting, turns: turns,
      speechService: backend.address.description
        + (backend.isForwardedOverSSH ? Announcer.forwardedOverSSH : ""),
      summaryWording: summaryWording)
    return SpeechdSpeaker(announcer: announcer, lists: SpeechdLists(address: backend.address))
  }
}
