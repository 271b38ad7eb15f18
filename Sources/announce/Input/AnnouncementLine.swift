import AnnouncerCore
import FoundationEssentials

/// One line of `--input json`: an announcement with its own options.
///
/// ```json
/// {"text": "Saved", "timeout": 0, "priority": "message", "delay": 1}
/// ```
/// Every field but `text` is optional and falls back to the command line's value. The
/// other fields are the settings of ``Settings`` that have a JSON key; a field that is
/// `null` counts as left out, and a field no setting has is ignored.
struct AnnouncementLine: Sendable {
  /// What to say.
  var text: String
  /// The whole text, when ``text`` is a long one shortened for speech; the history keeps it.
  var whole: String? = nil
  /// The text field as given, which an SSML document keeps: Markdown, a source and a
  /// shortening would break its markup.
  var given: String = ""
  /// What the line's other fields do to an announcement, in the order of ``Settings/all``.
  private var changes: [AnnouncementChange]

  /// Decodes one line; throws a ``LineError`` with a sentence for people.
  static func decode(_ line: String) throws(LineError) -> AnnouncementLine {
    try decode(line, reading: TextReading(format: .json))
  }

  /// Decodes one line or document as `reading` says: its text from `reading`'s text
  /// field, said from the source its source field names; the settings of a JSON line,
  /// but never a document's, whose fields are another program's (Codex CLI's `type` is
  /// no voice type).
  static func decode(_ line: String, reading: TextReading) throws(LineError) -> AnnouncementLine {
    if let problem = JSONLineCheck.problem(in: line) { throw problem }
    let fields: [String: JSONValue]
    do {
      fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
    } catch {
      throw LineError(localized("it is not a JSON object such as {\"text\": \"Saved\"}"))
    }
    let field = reading.textField
    let shownField = JSONLineCheck.shown(field)
    let text: String
    switch fields[field] ?? .null {
    case .null: throw LineError(localized("the object has no \"{field}\" field", ["field": shownField]))
    case .string(let value): text = value
    case let other:
      throw LineError(
        localized(
          "\"{field}\" must be a string, not {value}", ["field": shownField, "value": other.description]))
    }
    if InputLines.cleaned(text) == nil {
      throw LineError(localized("the \"{field}\" field is empty", ["field": shownField]))
    }
    let source = reading.sourceField.flatMap { fields[$0]?.string }
    var changes: [AnnouncementChange] = []
    for setting in Settings.all where reading.format == .json {
      guard let key = setting.jsonKey, let value = fields[key], value != .null else { continue }
      changes.append(try setting.change(from: value))
    }
    let said = reading.said(text, source: source)
    return AnnouncementLine(text: said.spoken, whole: said.whole, given: text, changes: changes)
  }

  /// This line as an announcement, with `defaults` for every field it leaves out.
  func announcement(defaults: Announcement) -> Announcement {
    var result = defaults
    result.text = text
    for change in changes { change(&result) }
    return result
  }
}

/// Why an input line was rejected.
struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A phrase for people in the language of the locale, such as "the object has no
  /// "text" field".
  var description: String
  /// The phrase in English, for the JSON event and the outcome log.
  var english: String

  /// Creates an error from a phrase made with `localized`, or in English.
  init(_ description: String) {
    self.init(description, english: EnglishOriginals.english(of: description))
  }

  /// Creates an error from a phrase and its English.
  init(_ description: String, english: String) {
    self.description = description
    self.english = english
  }
}
