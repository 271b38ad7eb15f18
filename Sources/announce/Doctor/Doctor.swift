import AnnouncerCore
import ArgumentParser
import FoundationEssentials

/// `announce doctor`: finds out what stands between the user and hearing an
/// announcement, one check and one line at a time, in the order a person would check.
///
/// The exit status comes from the checks' findings through ``DoctorOutcome/of(_:)``.
struct Doctor: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce doctor",
    abstract: "Check what stands between you and hearing an announcement, one line per check.",
    discussion: """
      In order: the speech-dispatcher address and why; whether the daemon answers within 2 \
      seconds, with its output module and language; a short spoken test sentence and its \
      outcome; the shell hook of the shell that ran doctor; tmux's hooks inside tmux; the \
      SSH forward in an SSH session; the braille display when ANNOUNCE_BRAILLE is on or only; and the outcome log. Exit status 0 when speech works, \
      69 when it cannot be heard, 1 when it works but something else is broken. See man announce.
      """)

  /// The subcommand's name, as the first argument.
  static let name = "doctor"

  @Option(
    help: ArgumentHelp(
      "speech-dispatcher address, as in SPEECHD_ADDRESS: unix_socket:PATH or inet_socket:HOST:PORT.",
      valueName: "address"))
  var address: String?

  @Flag(help: "Print one JSON object per check instead of sentences.")
  var json = false

  func validate() throws {
    if let address, SpeechdAddress.parse(address) == nil {
      throw ValidationError(
        "--address \"\(address)\" is not a speech-dispatcher address; use unix_socket:PATH or inet_socket:HOST:PORT."
      )
    }
  }

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    var findings: [DoctorFinding] = []
    let terminal = Terminal(quiet: false)
    func report(_ line: DoctorLine) {
      findings.append(line.finding)
      terminal.standardOutput(json ? line.json : line.sentence)
    }
    let braille = BrailleCheck.mode(environment: environment)
    // Braille alone needs no speech-dispatcher: its checks are information only, and no
    // test sentence is spoken to a user who may have no speech at all.
    func reportSpeech(_ line: DoctorLine) {
      var line = line
      if braille == .only, line.finding == .speechUnavailable { line.finding = .notInUse }
      report(line)
    }
    let found = AddressCheck(explicit: address, environment: environment).run()
    reportSpeech(found.line)
    if braille == .only {
      if let chosen = found.address {
        reportSpeech(await DaemonCheck(address: chosen, isForwarded: found.isForwarded).run().0)
      }
      report(SpokenTestCheck.brailleOnly)
    } else if let chosen = found.address {
      let (daemonLine, answer) = await DaemonCheck(address: chosen, isForwarded: found.isForwarded).run()
      report(daemonLine)
      if answer == .unavailable {
        report(SpokenTestCheck.skipped)
      } else {
        switch await SpokenTestCheck(explicit: address, environment: environment).run() {
        case .success(let line): report(line)
        case .failure(let stop):
          terminal.error(
            "announce doctor stopped because of \(stop.signal.name); the test sentence was cancelled.")
          throw ExitCode(ExitStatus.of(.interrupted(stop.signal)))
        }
      }
    }
    report(ShellHookCheck(environment: environment).run())
    if let socket = TmuxCheck.socket(environment: environment) { report(TmuxCheck(socket: socket).run()) }
    if SSHForwardCheck.applies(environment: environment) {
      report(SSHForwardCheck(explicit: address, environment: environment).run())
    }
    if braille != .off { report(await BrailleCheck(mode: braille, environment: environment).run()) }
    report(OutcomeLogCheck(environment: environment).run())
    let status = ExitStatus.of(DoctorOutcome.of(findings).result)
    if status != ExitStatus.success { throw ExitCode(status) }
  }
}
