import AnnouncerCore
import ArgumentParser
import Glibc

/// Everything one run of `announce` needs, as plain values: what to do, what to speak,
/// with which settings, where the outcomes go and how to connect.
///
/// Parsing ends in one (``Announce/request(environment:)``), and so do the hooks
/// (``hook(speaking:soundIcon:environment:origin:)``) and `announce replay`; ``AnnounceRun``
/// carries it out. The environment is read into it once, where it is made.
struct AnnounceRequest: Sendable {
  /// What the run does.
  enum Work: Sendable, Equatable {
    /// Speak the announcements and wait for their outcomes.
    case speak
    /// List speech-dispatcher's output modules, voices, or both, instead of speaking.
    case list(modules: Bool, voices: Bool)
    /// Check the input and the connection, then deliver in the background (`--detach`).
    case detach
  }

  /// Where the announcements come from.
  enum Input: Sendable, Equatable {
    /// These texts, one announcement each.
    case texts([String])
    /// Every line of standard input, as plain text or as JSON objects.
    case standardInput(InputOptions.Format)
  }

  /// The process `--when-done` waits for.
  struct WhenDone: Sendable, Equatable {
    /// Its process ID.
    var pid: pid_t
    /// Whether the process that started this one passes it in, opened, as
    /// ``WatchedProcess/inheritedDescriptor`` (the background half of `--detach`).
    var isPassedIn = false
  }

  /// How to reach speech-dispatcher.
  struct Connection: Sendable, Equatable {
    /// A `SPEECHD_ADDRESS`-style address; `nil` finds the user's own.
    var address: String?
    /// The client name speech-dispatcher shows.
    var appName = "announce"
    /// Where `SPEECHD_ADDRESS`, `SSH_CONNECTION` and `XDG_RUNTIME_DIR` are read.
    var environment: [String: String] = [:]
  }

  /// Where the events, sentences and outcomes of the run go.
  struct Outcomes: Sendable {
    /// Every event as a JSON line on standard output (`--json`).
    var json = false
    /// One plain line per event on standard error (`--verbose`).
    var verbose = false
    /// Nothing on standard error (`--quiet`).
    var quiet = false
    /// The log the history records every outcome in; `nil` when it is turned off.
    var history: OutcomeLog?
    /// The key of the recorded announcement the run speaks again (`announce replay`).
    var replays: String?
    /// Whether nobody reads standard error, as for a hook or the background half of
    /// `--detach`: a failure that ends the run is written into the history as well, and
    /// a history that cannot be written is not mentioned.
    var unattended = false
    /// For a hook's run, the words that start the history's line for a failure that
    /// ends the run, naming the announcement that was lost, such as `The shell hook
    /// could not announce "make finished after 2 minutes": `; empty for any other run.
    var failurePreamble = ""
  }

  /// What the run does.
  var work = Work.speak
  /// What it speaks.
  var input: Input
  /// How each input's text is read: its JSON fields, Markdown, its source, a long text.
  var reading = TextReading()
  /// Every setting: the announcement each input becomes, before the fields of a JSON line.
  var defaults = Announcement("")
  /// At most this many announcements wait; flood control skips the oldest beyond it.
  var maxQueue = AnnouncerOptions.defaultMaxQueue
  /// The process to wait for before speaking; `nil` speaks at once.
  var whenDone: WhenDone?
  /// How to reach speech-dispatcher.
  var connection = Connection()
  /// Where the outcomes go.
  var outcomes = Outcomes()
  /// The channels the announcements go to, and which of them must deliver.
  var plan = DeliveryPlan.speech
  /// How the braille display shows them, when the plan uses it.
  var braille = Braille()
  /// The body of each desktop notification, when the plan uses them: where the
  /// announcement came from, such as a hook's command and folder; empty for none.
  var notificationBody = ""

  /// Whether the announcements come from standard input.
  var readsStandardInput: Bool {
    if case .standardInput = input { return true }
    return false
  }

  /// The texts given as arguments; empty when reading standard input.
  var texts: [String] {
    if case .texts(let texts) = input { return texts }
    return []
  }
}

extension AnnounceRequest {
  /// The retry window of a hook's announcements, in seconds, when `ANNOUNCE_TIMEOUT` is
  /// not set: the hook is in no hurry, and a screen reader may be reading a command's
  /// output.
  static let hookTimeout = 30.0

  /// The request that speaks `sentence` for a hook, as the background half of `--detach`
  /// does: every setting comes from `environment`, as for a command line without
  /// options, except the sound icon and the hooks' own default timeout. Nobody reads its
  /// standard error. `origin`, where the sentence came from (a command and its folder),
  /// is the body of its desktop notification.
  ///
  /// - Throws: the same usage error as a command line for a variable that is not valid.
  static func hook(
    speaking sentence: String, soundIcon: String?, environment: [String: String], origin: String = ""
  ) throws -> AnnounceRequest {
    var defaults = try Settings.announcement(environment: environment)
    defaults.soundIcon = soundIcon
    if defaults.chosenRetryTimeout == nil {
      defaults.retryTimeout = .seconds(hookTimeout)
    }
    let records = try HistorySwitch.isOn(environment: environment)
    let plan = try DeliveryPlan(environment: environment)
    return AnnounceRequest(
      input: .texts([sentence]), defaults: defaults,
      maxQueue: try Settings.maxQueue.resolved(nil, environment: environment)
        ?? AnnouncerOptions.defaultMaxQueue,
      connection: Connection(environment: environment),
      outcomes: Outcomes(
        history: records ? OutcomeLog.forUser(environment: environment) : nil, unattended: true),
      plan: plan, notificationBody: origin)
  }
}
