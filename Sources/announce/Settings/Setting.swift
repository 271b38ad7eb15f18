import AnnouncerCore
import ArgumentParser

/// The values one setting takes: how they are read, and how a message names them.
struct ValueRule<Value: Sendable>: Sendable {
  /// The valid values, for the middle of a sentence: "a whole number from -100 to 100".
  var description: String
  /// `description` in the language of the locale, for a line printed for a person; made
  /// when a message needs it, since the locale is read on the first lookup.
  var printedDescription: @Sendable () -> String
  /// A valid value, as written: "50".
  var example: String
  /// The range the help shows, such as "-100 to 100"; `nil` where ArgumentParser lists
  /// the values itself or there is no range.
  var range: String?
  /// The value written as `text` in a variable, in or out of range; `nil` when it is
  /// not even of the right kind. (ArgumentParser reads the options' text itself.)
  var parse: @Sendable (String) -> Value?
  /// The value of a JSON field, in or out of range; `nil` when it is of the wrong kind.
  var fromJSON: @Sendable (JSONValue) -> Value?
  /// Whether a value is in range.
  var accepts: @Sendable (Value) -> Bool = { _ in true }
  /// A value as a message quotes it: `500`, `"en us"`.
  var show: @Sendable (Value) -> String = { "\($0)" }
  /// Whether the values are numbers, which may start with a minus sign: the option then
  /// takes the next argument whatever it looks like, so that `-r -50` is a rate.
  var isNumeric = false
  /// A value as a JSON value in a history record: `50`, `"en"`, `true`.
  var toJSON: @Sendable (Value) -> String = { "\($0)" }
  /// Whether a JSON value is of the values' kind, when that is wider than `fromJSON`
  /// reads: a record's choice that is no longer one of the names is still a string, not
  /// a value of the wrong type. `nil` when `fromJSON` tells.
  var kind: (@Sendable (JSONValue) -> Bool)? = nil

  /// Whether `value` is of the values' kind, in range or not.
  func isOfKind(_ value: JSONValue) -> Bool { kind?(value) ?? (fromJSON(value) != nil) }
}

extension ValueRule<Double> {
  /// Seconds from 0 to a day, decimals allowed.
  static let seconds = ValueRule(
    description: "a number of seconds from 0 to \(Int(Announcement.longestWait))",
    printedDescription: {
      localized("a number of seconds from 0 to {highest}", ["highest": String(Int(Announcement.longestWait))])
    }, example: "3",
    range: "0 to \(Int(Announcement.longestWait))",
    parse: { DurationText.seconds(in: $0) }, fromJSON: \.number, accepts: Announcement.acceptsWait,
    show: JSONValue.numberText, isNumeric: true)
}

extension ValueRule<Int> {
  /// A whole number in `range`. In JSON, `100.0` and `1e2` are the whole number 100, and
  /// `100.5` is not a whole number.
  static func wholeNumber(in range: ClosedRange<Int>, example: Int) -> ValueRule {
    ValueRule(
      description: "a whole number from \(range.lowerBound) to \(range.upperBound)",
      printedDescription: {
        localized(
          "a whole number from {lowest} to {highest}",
          ["lowest": String(range.lowerBound), "highest": String(range.upperBound)])
      },
      example: "\(example)",
      range: "\(range.lowerBound) to \(range.upperBound)",
      parse: { Int($0) }, fromJSON: \.wholeNumber, accepts: { range.contains($0) }, isNumeric: true)
  }

  /// A speech-dispatcher level: rate, pitch, pitch range, volume.
  static let level = wholeNumber(in: VoiceOptions.levelRange, example: 50)

  /// A process ID: Linux gives none above 4194304 (`PID_MAX_LIMIT`, the highest value
  /// `/proc/sys/kernel/pid_max` takes). The help names no range, which says nothing a
  /// person needs.
  static let processID = ValueRule(
    description: "a process ID, a whole number from 1 to 4194304",
    printedDescription: { localized("a process ID, a whole number from 1 to 4194304") }, example: "1234",
    parse: { Int($0) }, fromJSON: \.wholeNumber, accepts: { (1...4_194_304).contains($0) }, isNumeric: true)
}

extension ValueRule<String> {
  /// A name that can safely be sent to speech-dispatcher: one word, such as `example`.
  static func word(example: String) -> ValueRule {
    ValueRule(
      description: "one word", printedDescription: { localized("one word") }, example: example,
      parse: { $0 }, fromJSON: \.string, accepts: VoiceOptions.isSafeName, show: JSONValue.quoted,
      toJSON: EventJSON.quoted)
  }
}

extension ValueRule<Bool> {
  /// `true` or `false`, in JSON only: on the command line it is a flag.
  static let boolean = ValueRule(
    description: "true or false", printedDescription: { localized("true or false") }, example: "true",
    parse: { Bool($0) }, fromJSON: \.boolean)
}

extension ValueRule where Value: CaseIterable & RawRepresentable<String> {
  /// One of the enumeration's names, in any case: `IMPORTANT` is `important`.
  static var choice: ValueRule {
    ValueRule(
      description: "one of " + ListWords.either(Value.allCases.map(\.rawValue)),
      printedDescription: {
        localized(
          "one of {choices}", ["choices": ListWords.either(Value.allCases.map(\.rawValue), printed: true)])
      },
      example: Value.allCases.first?.rawValue ?? "",
      parse: { Value(rawValue: $0.lowercased()) },
      fromJSON: { $0.string.flatMap { Value(rawValue: $0.lowercased()) } },
      show: { JSONValue.quoted($0.rawValue) }, toJSON: { EventJSON.quoted($0.rawValue) },
      kind: { $0.string != nil })
  }
}

/// Where a setting is kept in a history record, so that `announce replay` speaks the
/// announcement again the same way.
struct RecordField<Value: Sendable>: Sendable {
  /// The field's key in a record of the outcome log, such as `pitchRange`.
  var key: String
  /// The setting's value in an announcement; `nil` leaves it out of the record.
  var read: @Sendable (Announcement) -> Value?

  /// Keeps the setting under `key`, as `read` finds it in an announcement.
  init(_ key: String, read: @escaping @Sendable (Announcement) -> Value?) {
    self.key = key
    self.read = read
  }
}

/// One setting of an announcement, declared once: its option, the values it takes, its
/// default, its environment variable, its field in `--input json`, its field in a
/// history record, its help, and where it goes in an ``Announcement``. Parsing,
/// validation, JSON input, the history, replay and `--help` all read it from here;
/// ``Settings`` lists every one.
struct Setting<Value: Sendable>: Sendable {
  /// The long option without its dashes, such as `rate`; `nil` for a JSON field alone.
  var option: String?
  /// The one-letter option, if any.
  var short: Character?
  /// How the help names the value: `seconds`.
  var valueName: String
  /// What the setting does, for the help, without a full stop.
  var summary: String
  /// The values it takes.
  var rule: ValueRule<Value>
  /// The default, as the help shows it; `nil` when speech-dispatcher's own setting applies.
  var defaultText: String?
  /// The environment variable that gives the default, such as `ANNOUNCE_RATE`.
  var variable: String?
  /// Its field in a line of `--input json`; `nil` when a line cannot set it.
  var jsonKey: String?
  /// Its field in a history record; `nil` for a setting a replay does not repeat.
  var record: RecordField<Value>?
  /// Puts the value into an announcement; `nil` for a setting of the whole run.
  var apply: (@Sendable (inout Announcement, Value) -> Void)?
  /// How the shells' completion offers values; `nil` for none.
  var completion: CompletionKind?

  /// Declares a setting; see the properties for each argument.
  init(
    option: String? = nil, short: Character? = nil, valueName: String = "value", summary: String,
    rule: ValueRule<Value>, defaultText: String? = nil, variable: String? = nil, jsonKey: String? = nil,
    record: RecordField<Value>? = nil, completion: CompletionKind? = nil,
    apply: (@Sendable (inout Announcement, Value) -> Void)? = nil
  ) {
    self.option = option
    self.short = short
    self.valueName = valueName
    self.summary = summary
    self.rule = rule
    self.defaultText = defaultText
    self.variable = variable
    self.jsonKey = jsonKey
    self.record = record
    self.apply = apply
    self.completion = completion
    assert(jsonKey == nil || apply != nil, "the JSON field \(jsonKey ?? "") must say where it goes")
    assert(record == nil || apply != nil, "the record field \(record?.key ?? "") must say where it goes")
  }

  /// The option as a person types it: `--rate`.
  var optionName: String { "--" + (option ?? "") }

  /// The option's names for ArgumentParser.
  var names: NameSpecification {
    let long = NameSpecification.Element.customLong(option ?? "")
    return short.map { [.customShort($0), long] } ?? [long]
  }

  /// The help: the summary, then the range and the default in brackets.
  var help: ArgumentHelp {
    var defaults: [String] = []
    if let defaultText { defaults.append(defaultText) }
    if let variable { defaults.append(variable) }
    let details = [rule.range, defaults.isEmpty ? nil : "default: " + defaults.joined(separator: ", or ")]
      .compactMap { $0 }
    let text = details.isEmpty ? summary + "." : summary + " (" + details.joined(separator: "; ") + ")."
    return ArgumentHelp(text, valueName: valueName)
  }

  /// `given`, the option's value, when it is valid; throws a usage error naming the
  /// option and its valid values when it is not.
  func checked(_ given: Value?) throws -> Value? {
    if let given, !rule.accepts(given) {
      let printed = localized(
        "{option} must be {rule}, not {value}.",
        ["option": optionName, "rule": rule.printedDescription(), "value": rule.show(given)])
      EnglishOriginals.remember(
        printed, english: "\(optionName) must be \(rule.description), not \(rule.show(given)).")
      throw ValidationError(printed)
    }
    return given
  }

  /// The option's value when given, else the variable's; throws a usage error naming
  /// whichever is invalid.
  func resolved(_ given: Value?, environment: [String: String]) throws -> Value? {
    if let given = try checked(given) { return given }
    guard let variable, let text = environment[variable], !text.isEmpty else { return nil }
    guard let value = rule.parse(text), rule.accepts(value) else {
      // A value of any length is quoted by its start: the log records this line on every hook
      // run. Its control characters are written as escapes, so that the line stays one.
      let shown = OneLine.escaped(EventDescription.shortened(text, to: 40))
      let printed = localized(
        "{variable}={value} is not {rule}; set it to one, such as {example}, or unset it.",
        ["variable": variable, "value": shown, "rule": rule.printedDescription(), "example": example])
      // The log records the English; the rule's words were looked up apart.
      EnglishOriginals.remember(
        printed,
        english:
          "\(variable)=\(shown) is not \(rule.description); set it to one, such as \(example), or unset it.")
      throw ValidationError(printed)
    }
    return value
  }

  /// A valid value, for a message that says how to fix an invalid one.
  private var example: String { defaultText ?? rule.example }
}

/// A ``Setting`` whatever its type of value, as ``Settings/all`` lists them.
protocol AnySetting: Sendable {
  /// The long option without its dashes; `nil` for a JSON field alone.
  var option: String? { get }
  /// The environment variable that gives the default, if any.
  var variable: String? { get }
  /// Its field in a line of `--input json`; `nil` when a line cannot set it.
  var jsonKey: String? { get }
  /// What the field's `value` does to an announcement; throws a ``LineError`` that
  /// names the field and its valid values when `value` is not one of them.
  func change(from value: JSONValue) throws(LineError) -> AnnouncementChange
  /// What the setting's variable in `environment` does to an announcement; `nil` when
  /// it is not set or the setting has no place in an announcement. Throws a usage error
  /// naming the variable when its value is not valid.
  func change(fromEnvironment environment: [String: String]) throws -> AnnouncementChange?
  /// Its field in a history record; `nil` for a setting a replay does not repeat.
  var recordKey: String? { get }
  /// The setting's field in the history record of `announcement`, as `,"key":value`;
  /// `nil` when the record leaves it out.
  func recordField(of announcement: Announcement) -> String?
  /// Whether a record's `value` for this setting is of the right kind; a value of the
  /// wrong kind is left out of the record and counted (see ``HistoryRecord/parseKeeping(_:)``).
  func isOfKind(_ value: JSONValue) -> Bool
  /// What a record's `value` does to the announcement a replay speaks; `nil` when it is
  /// no longer valid, so that speech-dispatcher's own setting applies.
  func change(fromRecord value: JSONValue) -> AnnouncementChange?
}

/// One field of a JSON line applied to an announcement.
typealias AnnouncementChange = @Sendable (inout Announcement) -> Void

extension Setting: AnySetting {
  func change(from value: JSONValue) throws(LineError) -> AnnouncementChange {
    guard let valid = rule.fromJSON(value), rule.accepts(valid) else {
      throw LineError(
        localized(
          "\"{key}\" must be {rule}, not {value}",
          ["key": jsonKey ?? "", "rule": rule.printedDescription(), "value": value.description]),
        english: "\"\(jsonKey ?? "")\" must be \(rule.description), not \(value.description)")
    }
    let apply = self.apply
    return { apply?(&$0, valid) }
  }

  func change(fromEnvironment environment: [String: String]) throws -> AnnouncementChange? {
    guard let apply, let value = try resolved(nil, environment: environment) else { return nil }
    return { apply(&$0, value) }
  }

  var recordKey: String? { record?.key }

  func recordField(of announcement: Announcement) -> String? {
    guard let record, let value = record.read(announcement) else { return nil }
    return ",\"\(record.key)\":" + rule.toJSON(value)
  }

  func isOfKind(_ value: JSONValue) -> Bool { rule.isOfKind(value) }

  func change(fromRecord value: JSONValue) -> AnnouncementChange? {
    guard let apply, let valid = rule.fromJSON(value), rule.accepts(valid) else { return nil }
    return { apply(&$0, valid) }
  }
}
