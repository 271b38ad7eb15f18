import FoundationEssentials

/// What one check of `announce doctor` found, as far as the exit status goes.
enum DoctorFinding: String, Sendable, CaseIterable, Encodable {
  /// It works.
  case fine
  /// Something optional, such as the shell hook, is not set up: information only.
  case notInUse = "not-in-use"
  /// The check could not be made because an earlier one failed.
  case skipped
  /// Speech can be heard, but this is broken, such as an outcome log that cannot be written.
  case somethingElseBroken = "something-else-broken"
  /// Speech cannot be heard: no daemon, a frozen one, or broken audio.
  case speechUnavailable = "speech-unavailable"
}

/// What a whole run of `announce doctor` came to, from the findings of its checks.
enum DoctorOutcome: Sendable, Equatable {
  /// Everything needed for speech works, and nothing else is broken.
  case fine
  /// Speech works, but something else is broken.
  case somethingElseBroken
  /// Speech cannot be heard.
  case speechUnavailable

  /// The one place that decides: speech that cannot be heard comes first, then anything
  /// else broken; a part not in use, or a check skipped, changes nothing.
  static func of(_ findings: some Sequence<DoctorFinding>) -> DoctorOutcome {
    var outcome = DoctorOutcome.fine
    for finding in findings {
      switch finding {
      case .speechUnavailable: return .speechUnavailable
      case .somethingElseBroken: outcome = .somethingElseBroken
      case .fine, .notInUse, .skipped: break
      }
    }
    return outcome
  }

  /// What the checks came to, as a run's result, so that ``ExitStatus/of(_:)`` gives
  /// doctor's status as it gives every other: 0, 1 as for an announcement not
  /// delivered, or 69 as for an unavailable speech service. The lines above have said
  /// what was found, so the failures carry no sentence of their own.
  var result: RunResult {
    switch self {
    case .fine: .checked
    case .somethingElseBroken: .failed(.notDelivered(""))
    case .speechUnavailable: .failed(.serviceUnavailable(""))
    }
  }
}

/// The report of one check: its name, its finding, its sentence, and the facts behind
/// the sentence for `--json`.
struct DoctorLine: Sendable {
  /// The check's name, such as `address`.
  var check: String
  /// What it found.
  var finding: DoctorFinding
  /// One plain sentence: what was found and, when something is wrong, the fix.
  var sentence: String
  /// The facts, by name, in the order they are printed.
  var facts: [(String, DoctorFact)] = []
  /// The sentence in the language of the locale, for the line printed for a person; `nil`
  /// when it is `sentence` as written. `--json` and `--report` keep `sentence`, which a
  /// program or a maintainer reads.
  var printed: String? = nil
}

extension DoctorLine {
  /// A line whose sentence, `said`, was made with ``localized(_:_:)`` in the language of
  /// the locale; `--json` and `--report` keep its English.
  init(check: String, finding: DoctorFinding, said: String, facts: [(String, DoctorFact)] = []) {
    self.init(
      check: check, finding: finding, sentence: EnglishOriginals.english(of: said), facts: facts,
      printed: said)
  }
}

/// One fact of a ``DoctorLine`` in `--json`.
enum DoctorFact: Sendable, Equatable, Encodable {
  case text(String)
  case number(Double)
  case flag(Bool)
  case texts([String])

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .text(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .flag(let value): try container.encode(value)
    case .texts(let value): try container.encode(value)
    }
  }
}

extension DoctorLine: Encodable {
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(check, forKey: Key(stringValue: "check"))
    try container.encode(finding, forKey: Key(stringValue: "finding"))
    try container.encode(sentence, forKey: Key(stringValue: "text"))
    for (name, fact) in facts { try container.encode(fact, forKey: Key(stringValue: name)) }
  }

  /// The line as one JSON object, for `--json`.
  var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
