import AnnouncerCore
import FoundationEssentials
import Glibc

/// Writes plain lines for people on standard error, and machine lines on standard output.
struct Terminal: Sendable {
  /// When true, nothing goes to standard error.
  var quiet: Bool
  /// For a run nobody hears (see ``AnnounceRequest/Outcomes/unattended``): failures of
  /// the whole run go to this log too.
  var log: OutcomeLog? = nil
  /// The words before a failure's sentence in that log (see
  /// ``AnnounceRequest/Outcomes/failurePreamble``).
  var failurePreamble = ""

  /// Writes one line to standard error, unless quiet.
  func error(_ line: String) {
    guard !quiet else { return }
    Self.write(Self.oneLine(line), to: 2)
  }

  /// `line` with each of its line breaks said as a space: a screen reader reads every line
  /// of standard error aloud, and a value the user gave can hold a break. The fuzz target
  /// `address` found one: an `SPEECHD_ADDRESS` with a line break in it split the sentence
  /// that names it in two.
  static func oneLine(_ line: String) -> String {
    guard line.unicodeScalars.contains(where: lineBreaks.contains) else { return line }
    return String(String.UnicodeScalarView(line.unicodeScalars.map { lineBreaks.contains($0) ? " " : $0 }))
  }

  /// What ends a line for a terminal or a screen reader: LF, VT, FF, CR, NEL, and Unicode's
  /// line and paragraph separators.
  private static let lineBreaks: Set<Unicode.Scalar> = [
    "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}",
  ]

  /// Says the sentence of `failure`, which ends the run.
  func failure(_ failure: RunFailure) {
    error(failure.sentence)
    log?.record(
      error: failurePreamble + EnglishOriginals.english(of: failure.sentence),
      status: ExitStatus.of(.failed(failure)))
  }

  /// Writes one line to standard error, and to the log of an unattended run, for a
  /// failure that ends the run with `result`.
  func failure(_ line: String, endingWith result: RunResult) {
    error(line)
    log?.record(error: EnglishOriginals.english(of: line), status: ExitStatus.of(result))
  }

  /// Writes one line to standard output. A closed pipe is ignored (SIGPIPE is ignored too).
  func standardOutput(_ line: String) {
    Self.write(line, to: 1)
  }

  /// Writes `line` and a line break to `descriptor`, giving up quietly when it cannot be
  /// written (a closed pipe, a full disk, a closed descriptor): output must never end the run.
  private static func write(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }
}

/// Plain one-line descriptions of events, for `--verbose`.
enum EventDescription {
  static func line(for event: AnnouncerEvent) -> String {
    var what: String
    switch event.kind {
    case .queued: what = localized("queued")
    case .attempt:
      what =
        (event.parts > 1
        ? localized("attempt {attempt} at part {part} of {parts}") : localized("attempt {attempt}"))
        .replacingBytes(of: "{attempt}", with: String(event.attempt))
        .replacingBytes(of: "{part}", with: String(event.part)).replacingBytes(
          of: "{parts}", with: String(event.parts))
      if let resumeAt = event.resumeAt {
        let rest = String(event.text.unicodeScalars.dropFirst(resumeAt))
        what += localized(", resuming at \"{text}\"").replacingBytes(
          of: "{text}", with: shortened(rest, to: 40))
      }
    case .begin: what = localized("speaking")
    case .mark(let name): what = localized("reached mark {name}").replacingBytes(of: "{name}", with: name)
    case .interrupted: what = localized("interrupted")
    case .waitingForQuiet: what = localized("waiting for quiet")
    case .waitingForConnection:
      what = localized("connection lost, waiting for speech-dispatcher to come back")
    case .waitingForTurn: what = localized("waiting while another announce speaks")
    case .merged(let into):
      what = localized("same as announcement {id}, which is still waiting; merged into it")
        .replacingBytes(of: "{id}", with: String(describing: into))
    case .spoken(let duration):
      what = localized("spoken after {seconds} seconds")
        .replacingBytes(of: "{seconds}", with: NumberWords.written(EventJSON.seconds(duration, decimals: 2)))
    case .gaveUp(let reason):
      what = localized("gave up: {reason}").replacingBytes(of: "{reason}", with: explanation(of: reason))
    }
    return
      "\(NumberWords.written(EventJSON.seconds(event.time, decimals: 2))) s: \"\(shortened(event.text))\": \(what)"
  }

  /// The core's ``GiveUpReason/explanation`` (what happened, without the fix) in
  /// `wording`'s language; the core knows no catalogs, so its phrases are worded here.
  static func explanation(of reason: GiveUpReason, in wording: Wording = .printed) -> String {
    switch reason {
    case .stalled:
      wording.localized(
        "speech-dispatcher began but never finished speaking it, so its audio output is probably broken")
    case .notAnswering:
      wording.localized("speech-dispatcher stopped answering, so it is probably stopped or frozen")
    case .interruptedOutOfTime: wording.localized("other speech interrupted it until its timeout ran out")
    case .noRetry: wording.localized("other speech interrupted it and its timeout of 0 allows no retry")
    case .disconnected:
      wording.localized("the connection to speech-dispatcher was lost and did not come back in time")
    case .cancelled: wording.localized("it was cancelled")
    case .dropped: wording.localized("too many announcements were waiting, so it was skipped")
    case .unreachable: wording.localized("no connection to speech-dispatcher could be made")
    case .notStarted: wording.localized("the background process that was to speak it could not be started")
    }
  }

  /// At most 80 characters of `text`, so a long announcement is not read out on every event.
  static func shortened(_ text: String, to length: Int = 80) -> String {
    let flat = text.replacingBytes(of: "\n", with: " ")
    return flat.count <= length ? flat : flat.prefix(length - 1) + "…"
  }
}

extension Duration {
  /// The duration as fractional seconds.
  var seconds: Double {
    let (whole, attoseconds) = components
    return Double(whole) + Double(attoseconds) / 1e18
  }
}
