import CSpeechd

// The C enums of libspeechd for the library's own types.

extension SpeechPriority {
  var cValue: SPDPriority {
    switch self {
    case .important: SPD_IMPORTANT
    case .message: SPD_MESSAGE
    case .text: SPD_TEXT
    case .notification: SPD_NOTIFICATION
    case .progress: SPD_PROGRESS
    }
  }
}

extension VoiceOptions.VoiceType {
  /// The type libspeechd reports as `value`; `nil` for one it does not name.
  init?(_ value: SPDVoiceType) {
    let all: [VoiceOptions.VoiceType] = Self.allCases
    guard let match = all.first(where: { $0.cValue == value }) else { return nil }
    self = match
  }

  var cValue: SPDVoiceType {
    switch self {
    case .male1: SPD_MALE1
    case .male2: SPD_MALE2
    case .male3: SPD_MALE3
    case .female1: SPD_FEMALE1
    case .female2: SPD_FEMALE2
    case .female3: SPD_FEMALE3
    case .childMale: SPD_CHILD_MALE
    case .childFemale: SPD_CHILD_FEMALE
    }
  }
}

extension VoiceOptions.Punctuation {
  var cValue: SPDPunctuation {
    switch self {
    case .none: SPD_PUNCT_NONE
    case .some: SPD_PUNCT_SOME
    case .most: SPD_PUNCT_MOST
    case .all: SPD_PUNCT_ALL
    }
  }
}
