import AnnouncerCore
import ArgumentParser

/// Why a run ended before its announcements were spoken, with the one sentence that
/// names the cause and the fix. Each case is a kind of failure; ``ExitStatus/of(_:)``
/// alone says which exit status each kind has.
enum RunFailure: Error, Sendable, Equatable {
  /// The command line or the environment asks for what cannot be done, such as a voice
  /// speech-dispatcher does not have.
  case usage(String)
  /// The input data is bad, such as invalid SSML.
  case badInput(String)
  /// speech-dispatcher, the audio output or the system cannot do what the run needs.
  case serviceUnavailable(String)
  /// The announcements were not delivered, though nothing else was wrong, such as a
  /// replay whose history stayed busy.
  case notDelivered(String)

  /// The sentence that names the cause and the fix.
  var sentence: String {
    switch self {
    case .usage(let sentence), .badInput(let sentence), .serviceUnavailable(let sentence),
      .notDelivered(let sentence):
      sentence
    }
  }

  /// The usage failure that `error` says: an error thrown while the settings of a run
  /// were read, such as the ``ValidationError`` of an `ANNOUNCE_` variable that is not valid.
  init(readingSettings error: any Error) {
    self = .usage((error as? ValidationError)?.message ?? String(describing: error))
  }

  /// The failure of a connection that could not be made: a malformed address is the
  /// user's to fix; anything else means the service cannot be reached.
  init(connecting error: SpeechdConnectError) {
    let sentence = error.printedSentence
    if case .invalidAddress = error {
      self = .usage(sentence)
    } else {
      self = .serviceUnavailable(sentence)
    }
  }

  /// How a person sets up the forwarding of speech from a server, for the end of a sentence.
  static let howToForward = "the lines of announce init ssh"
}
