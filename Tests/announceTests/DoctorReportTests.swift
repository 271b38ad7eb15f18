import Foundation
import Testing

@testable import announce

/// The errors of the last day that doctor shows, its `--report` block, and its deadline.
@Suite struct DoctorReportTests {
  static let now = 1_800_000_000.0

  static func error(_ text: String, hoursAgo: Double, status: Int32 = 64) -> RecentErrorsCheck.ErrorLine {
    let date = Date(timeIntervalSince1970: now - hoursAgo * 3600)
    return RecentErrorsCheck.ErrorLine(
      event: "error", text: text, status: status, at: OutcomeLog.timestamp(date))
  }

  @Test func theLastHookAndTmuxErrorsOfTheLastDayAreShown() {
    let errors = [
      Self.error("The shell hook could not announce \"make\": ANNOUNCE_VOICE=x is wrong.", hoursAgo: 30),
      Self.error("The shell hook could not announce \"make all\": ANNOUNCE_RATE=500 is wrong.", hoursAgo: 3),
      Self.error("The shell hook could not announce \"make test\": ANNOUNCE_RATE=500 is wrong.", hoursAgo: 2),
      Self.error(
        "The tmux hook could not announce \"bell in window 2\": ANNOUNCE_RATE=500 is wrong.", hoursAgo: 1),
    ]
    let lines = RecentErrorsCheck(environment: [:], now: Self.now).lines(for: errors)
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.finding == .notInUse })
    #expect(
      lines.first?.sentence.hasPrefix("In the last day the shell hook failed 2 times, last at ") == true)
    #expect(
      lines.first?.sentence.hasSuffix(
        "with status 64: The shell hook could not announce \"make test\": ANNOUNCE_RATE=500 is wrong.")
        == true, "\(lines.first?.sentence ?? "")")
    #expect(lines.last?.sentence.contains("a tmux hook failed once") == true)
  }

  @Test func theReportLeavesOutTheCommandLinesTheErrorsQuote() {
    let errors = [Self.error("The shell hook could not announce \"secret-command --token\": x.", hoursAgo: 1)]
    let lines = RecentErrorsCheck(environment: [:], forReport: true, now: Self.now).lines(for: errors)
    #expect(lines.count == 1)
    #expect(!(lines.first?.sentence.contains("secret") ?? true))
    #expect(!(lines.first?.json.contains("secret") ?? true))
  }

  @Test func errorsOlderThanADayAreNotShown() {
    let lines = RecentErrorsCheck(environment: [:], now: Self.now).lines(for: [
      Self.error("The tmux hook could not announce \"x\": y.", hoursAgo: 25)
    ])
    #expect(lines.map(\.finding) == [.fine])
  }

  @Test func theErrorsAreReadFromTheLog() throws {
    let directory = NSTemporaryDirectory() + "doctor-errors-\(getpid())-\(UUID().uuidString.prefix(6))"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let environment = ["XDG_STATE_HOME": directory, "HOME": directory]
    let log = OutcomeLog.forUser(environment: environment)
    log.record(error: "The shell hook could not announce: ANNOUNCE_RATE=500 is not valid.", status: 64)
    let lines = RecentErrorsCheck(environment: environment).run()
    #expect(lines.count == 1)
    #expect(lines.first?.sentence.contains("the shell hook failed once") == true, "\(lines.map(\.sentence))")
  }

  @Test func theReportHasTheVersionsTheSystemTheSinkAndEveryFinding() {
    let lines = [
      DoctorLine(
        check: "daemon", finding: .fine, sentence: "speech-dispatcher answers.",
        facts: [("module", .text("espeak-ng"))]),
      DoctorLine(
        check: "sound", finding: .speechUnavailable, sentence: "It is muted.",
        facts: [
          ("server", .text("PulseAudio")), ("serverName", .text("pulseaudio 16.1")), ("sink", .text("card")),
          ("nullSink", .flag(false)), ("muted", .flag(true)), ("volume", .number(40)),
        ]),
    ]
    let report = DoctorReport(
      lines: lines, outcome: .speechUnavailable,
      version: { program in
        [
          "speech-dispatcher": "speech-dispatcher 0.11.4",
          "espeak-ng": "eSpeak NG text-to-speech: 1.51  Data at: /usr",
        ][program]
      },
      system: DoctorReport.prettyName(in: "NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n")
    )
    #expect(
      report.text == [
        "announce doctor report", "announce: \(announceVersion)", "speech-dispatcher: 0.11.4",
        "espeak-ng: 1.51",
        "output module: espeak-ng", "system: Debian GNU/Linux 12 (bookworm)",
        "sound: PulseAudio (pulseaudio 16.1), default sink card, muted, volume 40%",
        "daemon: fine: speech-dispatcher answers.", "sound: speech-unavailable: It is muted.",
        "outcome: speech cannot be heard (exit status 69)",
      ])
    let unknown = DoctorReport(lines: [], outcome: .fine, version: { _ in nil }, system: nil).text
    #expect(unknown.contains("speech-dispatcher: unknown"))
    #expect(unknown.contains("sound: unknown"))
  }

  /// A step that outlives its share is left behind by ``Race``, which RaceTests holds to it.
  @Test func aStepsShareIsAtMostWhatIsLeftOfTheWhole() {
    let deadline = DoctorDeadline(lasting: .seconds(2))
    #expect(deadline.share(.seconds(6)) <= .seconds(2))
    #expect(deadline.share(.seconds(6), keeping: .seconds(3)) == .zero)
  }
}
