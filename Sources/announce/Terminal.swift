import AnnouncerCore
import Foundation

/// Writes plain lines for people.
enum Terminal {
  /// Writes one line to standard error.
  static func error(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}

/// Plain one-line descriptions of events, for `--verbose`.
enum EventDescription {
  static func line(for event: AnnouncerEvent, texts: [String]) -> String {
    let seconds = String(format: "%.2f", event.time.seconds)
    let index = event.announcement.rawValue - 1
    let text = texts.indices.contains(index) ? texts[index] : "announcement \(event.announcement)"
    let what: String
    switch event.kind {
    case .queued: what = "queued"
    case .attempt: what = "attempt \(event.attempt)"
    case .begin: what = "speaking"
    case .mark(let name): what = "reached mark \(name)"
    case .interrupted: what = "interrupted"
    case .waitingForQuiet: what = "waiting for quiet"
    case .spoken(let duration): what = "spoken after \(String(format: "%.2f", duration.seconds)) seconds"
    case .gaveUp(let reason): what = "gave up: \(reason.explanation)"
    }
    return "\(seconds) s: \"\(text)\": \(what)"
  }
}

extension Duration {
  /// The duration as fractional seconds.
  var seconds: Double {
    let (whole, attoseconds) = components
    return Double(whole) + Double(attoseconds) / 1e18
  }
}
