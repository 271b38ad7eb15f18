import Foundation
import Testing

/// The catalogs hold to `po/GLOSSARY.md`: one term per concept in each language, and none
/// of the words that named the same thing beside it (issue #46).
@Suite struct GlossaryTests {
  /// One rule of the glossary: `LL | concept | verb | pattern`, and for `avoid` an optional
  /// `| unless`, a pattern of the msgid under which the word is right.
  struct Rule {
    var language: String
    var concept: String
    var verb: String
    var pattern: NSRegularExpression
    var unless: NSRegularExpression?
  }

  struct MalformedRule: Error, CustomStringConvertible {
    var line: String
    var description: String { "not a glossary rule: \(line)" }
  }

  /// The rules of the fenced `glossary` blocks of `text`.
  static func rules(in text: String) throws -> [Rule] {
    var inBlock = false
    var rules: [Rule] = []
    for line in text.components(separatedBy: "\n") {
      if line.hasPrefix("```") {
        inBlock = line == "```glossary"
        continue
      }
      guard inBlock, !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
      let fields = line.components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count == 4 || (fields.count == 5 && fields[2] == "avoid"),
        ["names", "use", "avoid"].contains(fields[2])
      else { throw MalformedRule(line: line) }
      rules.append(
        Rule(
          language: fields[0], concept: fields[1], verb: fields[2],
          pattern: try NSRegularExpression(pattern: fields[3]),
          unless: fields.count == 5 ? try NSRegularExpression(pattern: fields[4]) : nil))
    }
    return rules
  }

  /// The rules of `po/GLOSSARY.md`; a pattern ICU cannot read fails the test that asks.
  static func glossaryRules() throws -> [Rule] {
    try rules(in: String(contentsOfFile: CatalogTests.root + "/po/GLOSSARY.md", encoding: .utf8))
  }

  static func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
    pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  /// Every place where the translations of `language` break `rules`, one line each.
  static func findings(
    _ messages: [(id: String, strings: [String])], language: String, rules: [Rule]
  ) -> [String] {
    let names = Dictionary(
      rules.filter { $0.language == "en" && $0.verb == "names" }.map { ($0.concept, $0.pattern) },
      uniquingKeysWith: { first, _ in first })
    var found: [String] = []
    for rule in rules where rule.language == language {
      for message in messages {
        for string in message.strings {
          switch rule.verb {
          case "use":
            guard let named = names[rule.concept], matches(named, message.id) else { continue }
            if !matches(rule.pattern, string) {
              found.append("\(language) \(rule.concept): \"\(string)\" lacks \(rule.pattern.pattern)")
            }
          case "avoid":
            if matches(rule.pattern, string), !(rule.unless.map { matches($0, message.id) } ?? false) {
              found.append("\(language) \(rule.concept): \"\(string)\" has \(rule.pattern.pattern)")
            }
          default: continue
          }
        }
      }
    }
    return found
  }

  @Test func theGlossaryGivesEachLanguageATermForEachConcept() throws {
    let rules = try Self.glossaryRules()
    let named = Set(rules.filter { $0.language == "en" }.map(\.concept))
    #expect(
      named.isSuperset(of: [
        "speech", "voice", "announcement", "hook", "braille display", "replay", "sink",
      ]))
    for language in CatalogTests.languages {
      let used = Set(rules.filter { $0.language == language && $0.verb == "use" }.map(\.concept))
      #expect(used == named, "\(language) has no term for \(named.subtracting(used).sorted())")
    }
    for rule in rules where rule.verb == "use" {
      #expect(named.contains(rule.concept), "no English pattern names \(rule.concept)")
    }
  }

  @Test(arguments: CatalogTests.languages)
  func aCatalogUsesTheGlossarysTermsAndNoneOfTheWordsItAvoids(language: String) throws {
    let rules = try Self.glossaryRules()
    try #require(!rules.isEmpty)
    let catalog = try POFile(path: "\(CatalogTests.root)/po/\(language).po")
    let messages = catalog.messages.map { (id: $0.id, strings: $0.strings) }
    let found = Self.findings(messages, language: language, rules: rules)
    #expect(found.isEmpty, "\(found.count) findings:\n\(found.joined(separator: "\n"))")
  }

  /// The check finds the words the reviewer found in the catalogs of f4159d3.
  @Test func theCheckFindsASynonymAndAMissingTerm() throws {
    let rules = try Self.glossaryRules()
    let german = [
      (
        id: "other speech interrupted it until its timeout ran out",
        strings: ["andere Sprache hat sie unterbrochen, bis ihre Wartezeit abgelaufen war"]
      ),
      (id: "the language {language}", strings: ["der Sprache {language}"]),
    ]
    #expect(Self.findings(german, language: "de", rules: rules).count == 2)
    let spanish = [(id: "the shell hook", strings: ["el gancho del shell"])]
    #expect(Self.findings(spanish, language: "es", rules: rules).count == 2)
    let fixed = [(id: "the shell hook", strings: ["el hook del shell"])]
    #expect(Self.findings(fixed, language: "es", rules: rules).isEmpty)
  }
}
