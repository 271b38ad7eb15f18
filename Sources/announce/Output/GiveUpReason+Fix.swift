import AnnouncerCore

extension GiveUpReason {
  /// What the library says happened (its cause), followed by what the user can do about
  /// it where the command knows (the fix): the end of a "Not delivered" sentence.
  var causeAndFix: String {
    guard let fix else { return explanation }
    return "\(explanation); \(fix)"
  }

  /// What the user can do about it, or `nil` when there is nothing to add (a lost
  /// connection gets a sentence of its own that names the address).
  private var fix: String? {
    switch self {
    case .stalled:
      "check that PulseAudio or PipeWire is running and read speech-dispatcher's log in ~/.cache/speech-dispatcher/log"
    case .notAnswering: "resume a stopped one with kill -CONT, or kill it and start it again"
    case .interruptedOutOfTime, .noRetry, .disconnected, .cancelled, .dropped: nil
    }
  }
}
