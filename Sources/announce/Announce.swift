import AnnouncerCore
import ArgumentParser
import Foundation

/// The `announce` command: parses, validates, and maps outcomes to exit status.
/// Everything else happens in AnnouncerCore.
@main
struct Announce: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce",
    abstract: "Speak announcements through speech-dispatcher and report whether they were heard.",
    discussion: """
      Each TEXT is one announcement, spoken in order. An announcement that other speech \
      interrupts is tried again, once the channel is quiet, until its timeout runs out. \
      The exit status is 0 only when every announcement was heard to the end.
      """,
    version: "0.1.0"
  )

  @Option(
    name: [.short, .long],
    help: ArgumentHelp(
      "Retry window in seconds, counted from the first attempt; 0 means no retry.",
      valueName: "seconds"))
  var timeout: Double = 3

  @Option(
    name: [.customShort("P"), .long],
    help: ArgumentHelp(
      "speech-dispatcher priority: \(SpeechPriority.allValueStrings.joined(separator: ", ")).",
      valueName: "priority"))
  var priority: SpeechPriority = .text

  @Option(
    help: ArgumentHelp("Seconds to wait before the first attempt.", valueName: "seconds"))
  var delay: Double = 0

  @Option(
    help: ArgumentHelp(
      "speech-dispatcher address, as in SPEECHD_ADDRESS: unix_socket:PATH or inet_socket:HOST:PORT.",
      valueName: "address"))
  var address: String?

  @Option(
    name: [.customShort("N"), .long],
    help: ArgumentHelp("Client name shown by speech-dispatcher.", valueName: "name"))
  var appName = "announce"

  @Flag(name: .shortAndLong, help: "Print one plain line per event on standard error.")
  var verbose = false

  @Argument(help: "The announcements, one per argument.")
  var texts: [String] = []

  func validate() throws {
    guard timeout.isFinite, timeout >= 0 else {
      throw ValidationError("--timeout must be a number of seconds, 0 or more, such as 3 or 0.5.")
    }
    guard delay.isFinite, delay >= 0 else {
      throw ValidationError("--delay must be a number of seconds, 0 or more, such as 1 or 0.5.")
    }
    guard !texts.isEmpty else {
      throw ValidationError("Give at least one TEXT to announce, such as: announce \"Saved\".")
    }
    if let address, SpeechdAddress.parse(address) == nil {
      throw ValidationError(
        "--address \"\(address)\" is not a speech-dispatcher address; "
          + "use unix_socket:PATH or inet_socket:HOST:PORT.")
    }
  }

  func run() async throws {
    signal(SIGPIPE, SIG_IGN)
    let client: SpeechdClient
    do {
      client = try await SpeechdClient.connect(address: address, appName: appName)
    } catch {
      Terminal.error(error.description)
      throw ExitCode(ExitStatus.serviceUnavailable)
    }
    let announcer = Announcer(backend: client)
    let signals = SignalTrap { signalNumber in
      await announcer.cancelAll()
      await client.close()
      return ExitStatus.interrupted(by: signalNumber)
    }
    defer { signals.disarm() }

    let report = RunReport()
    let events = announcer.events()
    let texts = texts
    let announcements = texts.map {
      Announcement(
        $0, priority: priority, retryTimeout: .seconds(timeout), delay: .seconds(delay))
    }
    let collector = Task { [verbose] in
      for await event in events {
        report.record(event)
        if verbose { Terminal.error(EventDescription.line(for: event, texts: texts)) }
      }
    }
    for announcement in announcements { announcer.enqueue(announcement) }
    await announcer.waitUntilIdle()
    await announcer.close()
    await collector.value

    for failure in report.failures {
      let text = texts[failure.id.rawValue - 1]
      Terminal.error("Not delivered: \"\(text)\": \(failure.reason.explanation).")
    }
    let status = ExitStatus.forReasons(report.failures.map(\.reason))
    if status != 0 { throw ExitCode(status) }
  }
}

extension SpeechPriority: ExpressibleByArgument {}
