import AnnouncerCore
import Dispatch
import ArgumentParser
import FoundationEssentials

/// `announce doctor`: finds out what stands between the user and hearing an
/// announcement, one check and one line at a time, in the order a person would check.
///
/// The exit status comes from the checks' findings through ``DoctorOutcome/of(_:)``.
struct Doctor: DeliveringCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce doctor",
    abstract: "Check what stands between you and hearing an announcement, one line per check.",
    discussion: """
      In order: every ANNOUNCE_ variable; the speech-dispatcher address and why; whether the \
      daemon answers within 2 seconds, with its output module and language; a short test \
      sentence spoken with your settings, and its outcome; the sound server and its default \
      sink; the shell hook of the shell that ran doctor; tmux's hooks inside tmux; the SSH \
      forward in an SSH session; the braille display when ANNOUNCE_BRAILLE is on or only; \
      the notification server when ANNOUNCE_NOTIFY is on or only; \
      the errors of background runs in the last day; and the outcome log. It ends within 8 \
      seconds. Exit status 0 when speech works, 69 when it cannot be heard (also a muted, \
      silent or null sink), 1 when it works but something else is broken, such as an \
      ANNOUNCE_ variable that is not valid. See man announce.
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

  @Flag(
    help:
      "Print one block to paste into a bug report: versions, system, sound server and every check's finding, without command lines or announcement text."
  )
  var report = false

  func validate() throws {
    if let address, SpeechdAddress.parse(address) == nil {
      throw ValidationError(
        localized(
          "--address \"{address}\" is not a speech-dispatcher address; use unix_socket:PATH or inet_socket:HOST:PORT.",
          ["address": address])
      )
    }
    if json && report {
      throw ValidationError(localized("--json and --report cannot be used together; choose one."))
    }
  }

  /// Runs the checks with the process's signals, which ``Main`` armed: doctor is one
  /// phase of the ``RunDriver``, which a signal ends, cancelling the test sentence while
  /// it is spoken; no line is printed after it.
  func run(signals: ProcessSignals) async throws -> Int32 {
    let terminal = Terminal(quiet: false)
    let sentence = TestSentenceChannel()
    let (address, json, report) = (self.address, self.json, self.report)
    let ended = await RunDriver(signals: signals).phase(stopping: [sentence]) {
      await Self.examine(
        address: address, json: json, forReport: report, sentence: sentence, signals: signals,
        terminal: terminal)
    }
    switch ended {
    case .finished(let found): return found
    case .interrupted(let signal):
      if sentence.wasCancelled {
        terminal.error(
          localized(
            "announce doctor stopped because of {signal}; the test sentence was cancelled.",
            ["signal": signal.name]))
      }
      return ExitStatus.of(.interrupted(signal))
    }
  }

  /// Every check, in order, each line printed as it is found; returns the exit status.
  private static func examine(
    address: String?, json: Bool, forReport: Bool, sentence: TestSentenceChannel, signals: ProcessSignals,
    terminal: Terminal
  ) async -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    let deadline = DoctorDeadline()
    var lines: [DoctorLine] = []
    func report(_ line: DoctorLine) {
      // After a signal, doctor ends with its line: no check is printed after it.
      guard signals.received == nil else { return }
      lines.append(line)
      if !forReport { terminal.standardOutput(json ? line.json : line.printed ?? line.sentence) }
    }
    for line in SettingsCheck(environment: environment).run() { report(line) }
    let plan = BrailleCheck.plan(environment: environment)
    // Braille alone needs no speech-dispatcher: its checks are information only, and no
    // test sentence is spoken to a user who may have no speech at all.
    func reportSpeech(_ line: DoctorLine) {
      var line = line
      if !plan.uses(.speech), line.finding == .speechUnavailable { line.finding = .notInUse }
      report(line)
    }
    let found = AddressCheck(explicit: address, environment: environment).run()
    reportSpeech(found.line)
    if let chosen = found.address {
      let check = DaemonCheck(address: chosen, isForwarded: found.isForwarded)
      // The daemon's own bound, and a little for a connect the kernel holds up.
      let answered = await Race.within(deadline.share(DaemonCheck.answerBound + .milliseconds(500))) {
        await check.run()
      }
      let (daemonLine, answer) = answered ?? (Self.notAnswering(at: chosen), .unavailable)
      reportSpeech(daemonLine)
      if !plan.uses(.speech) {
        report(plan.requires(.braille) ? SpokenTestCheck.brailleOnly : NotificationCheck.notifyOnly)
      } else if answer == .unavailable {
        report(SpokenTestCheck.skipped)
      } else {
        // Leaves time for the checks after it, the sound check above all.
        let bound = deadline.share(SpokenTestCheck.bound, keeping: .milliseconds(1500))
        let check = SpokenTestCheck(
          explicit: address, environment: environment, bound: bound, channel: sentence,
          settings: SettingsCheck.usableAnnouncement(environment: environment))
        let spoken = await Race.within(bound + .milliseconds(700)) { await check.run() }
        for line in spoken ?? [check.line(for: .gaveUp(.cancelled), took: bound)] { report(line) }
      }
    }
    reportSpeech(
      SoundCheck(environment: environment, bound: { deadline.share(SoundCheck.answerBound) }).run())
    report(ShellHookCheck(environment: environment).run())
    if let socket = TmuxCheck.socket(environment: environment) {
      report(
        TmuxCheck(
          socket: socket,
          tmux: { ChildOutput.read("tmux", $0, within: deadline.share(TmuxCheck.answerBound)) }
        ).run())
    }
    if SSHForwardCheck.applies(environment: environment) {
      // Whether the forward is stale is asked with a connect, which a listener whose
      // backlog is full holds up.
      let check = SSHForwardCheck(explicit: address, environment: environment)
      let bound = deadline.share(SSHForwardCheck.answerBound)
      report(
        await Race.within(bound, on: .global()) { check.run() } ?? check.notAnswering(within: bound))
    }
    if plan.uses(.braille) {
      let check = BrailleCheck(plan: plan, environment: environment)
      let bound = deadline.share(BrailleCheck.answerBound)
      report(
        await Race.within(bound) { await check.run() } ?? check.notAnswering(within: bound))
    }
    if plan.uses(.notification) {
      let check = NotificationCheck(plan: plan, environment: environment)
      let bound = deadline.share(NotificationCheck.answerBound)
      report(
        await Race.within(bound) { await check.run() } ?? check.notAnswering(within: bound))
    }
    for line in RecentErrorsCheck(environment: environment, forReport: forReport).run() { report(line) }
    report(OutcomeLogCheck(environment: environment).run())
    let outcome = DoctorOutcome.of(lines.map(\.finding))
    if forReport {
      let versionBound = { deadline.share(DoctorReport.versionBound) }
      let block = DoctorReport(
        lines: lines, outcome: outcome,
        version: { program in
          ChildOutput.read(program, ["--version"], within: versionBound())?
            .split(separator: "\n").first.map(String.init)
        },
        system: DoctorReport.systemName())
      for line in block.text { terminal.standardOutput(line) }
    }
    return ExitStatus.of(outcome.result)
  }

  /// The daemon's line when its check did not end in its share of doctor's time, such as
  /// when the connection itself is held up.
  static func notAnswering(at address: SpeechdAddress) -> DoctorLine {
    DoctorLine(
      check: "daemon", finding: .speechUnavailable,
      said: localized(
        "speech-dispatcher at {address} did not answer within {seconds} seconds, so it is probably stopped or frozen; restart it, or correct --address or SPEECHD_ADDRESS.",
        [
          "address": AddressCheck.printed(address),
          "seconds": String(DaemonCheck.answerBound.components.seconds),
        ]))
  }
}
