import AnnouncerCore
import Foundation
import Testing

@testable import announce

/// The declarations of ``Settings``: each reaches `--help`, its variable, its JSON field
/// and the documentation, so that a setting added in one place is complete.
@Suite struct SettingsTests {
  /// The text of `document` from `start` to the next heading that begins with `end`.
  func section(of document: String, from start: String, to end: String) throws -> Substring {
    let from = try #require(document.range(of: start), "no \(start)")
    let rest = document[from.upperBound...]
    let to = rest.range(of: end)?.lowerBound ?? rest.endIndex
    return rest[..<to]
  }

  @Test func everySettingWithAnOptionIsInTheHelp() {
    let help = Announce.helpMessage(columns: 200)
    for setting in Settings.all {
      guard let option = setting.option else { continue }
      #expect(help.contains("--\(option)"), "--\(option) is declared but not in --help")
    }
  }

  @Test func everyOptionOfTheSettingsGroupsIsASettingWithItsProperty() throws {
    let help = Announce.helpMessage(columns: 200)
    let groups = try section(of: help, from: "ANNOUNCER:", to: "CONNECTION AND OUTPUT:")
    // The names at the start of each option's line, not those its help text mentions.
    let names = groups.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { $0.hasPrefix("-") }
      .map { $0.prefix { $0 != "<" }.components(separatedBy: "  ")[0] }
    let inHelp = Set(
      names.flatMap { $0.split(whereSeparator: { " ,".contains($0) }) }.filter { $0.hasPrefix("--") }
        .map { String($0.dropFirst(2)) })
    let bound = Set(Settings.all.compactMap(\.option))
    #expect(inHelp.count >= 17)
    #expect(inHelp == bound, "in --help but not in a group's properties: \(inHelp.subtracting(bound))")
  }

  /// Expects each of `names` in the section `readme` of docs/usage.md (the README's
  /// reference part) and the man page's section `manPage`, spelt as `spelling` gives it in each.
  func expectDocumented(
    _ names: [String], readme: String, manPage: (start: String, end: String),
    spelling: (String) -> (readme: String, manPage: String)
  ) throws {
    let readmeText = try section(of: PackageFile.text("docs/usage.md"), from: readme, to: "\n### ")
    let manText = try section(of: PackageFile.text("man/announce.1"), from: manPage.start, to: manPage.end)
    for name in names {
      let (inReadme, inManPage) = spelling(name)
      #expect(readmeText.contains(inReadme), "\(name) is not in docs/usage.md's \(readme)")
      #expect(manText.contains(inManPage), "\(name) is not in the man page's \(manPage.start)")
    }
  }

  @Test func everyJSONFieldIsDocumented() throws {
    let keys = Settings.all.compactMap(\.jsonKey)
    #expect(keys.count >= 10)
    try expectDocumented(keys, readme: "### JSON input", manPage: (".Ss JSON input", "\n.Ss ")) {
      ("`\($0)`", "Cm \($0)")
    }
  }

  @Test func everyVariableIsDocumentedAndAnInvalidValueNamesIt() throws {
    let variables = Settings.all.compactMap(\.variable)
    #expect(variables.count >= 7)
    try expectDocumented(variables, readme: "### Environment", manPage: (".Sh ENVIRONMENT", "\n.Sh ")) {
      ("`\($0)`", ".It Ev \($0)")
    }
    for variable in variables {
      do {
        _ = try Announce.parse(["x"]).request(environment: [variable: "not valid"])
        Issue.record("\(variable)=not valid was accepted")
      } catch {
        let message = Announce.message(for: error)
        #expect(Announce.exitCode(for: error).rawValue == 64)
        #expect(message.hasPrefix("\(variable)=not valid is not "), "\(message)")
        #expect(message.hasSuffix(", or unset it."), "\(message)")
      }
    }
  }

  /// A variable's value is quoted in a sentence that must stay one line: a carriage return,
  /// a tab or a line separator in it is written as its escape, whatever the variable.
  @Test func anInvalidVariableWithControlCharactersIsQuotedOnOneLine() throws {
    for variable in Settings.all.compactMap(\.variable) {
      do {
        _ = try Announce.parse(["x"]).request(environment: [variable: "bad\rvalue\u{2028}\tend"])
        Issue.record("\(variable) with a carriage return was accepted")
      } catch {
        let message = Announce.message(for: error)
        let breaks = message.unicodeScalars.filter { $0.value < 0x20 || $0.value == 0x2028 }
        #expect(breaks.isEmpty, "\(variable): \(message.debugDescription)")
        #expect(message.contains(#"bad\rvalue\u2028\tend"#), "\(message.debugDescription)")
      }
    }
  }

  @Test func theHelpShowsEachRangeAndDefaultOnce() {
    let help = Settings.timeout.help.abstract
    #expect(help.hasSuffix("(0 to 86400; default: 3, or ANNOUNCE_TIMEOUT)."), "\(help)")
    #expect(Settings.rate.help.abstract == "Speaking rate (-100 to 100; default: ANNOUNCE_RATE).")
    #expect(Settings.pitch.help.abstract == "Pitch (-100 to 100).")
  }

  @Test func anOptionAnEnvironmentVariableAndAJSONFieldSayTheSameRange() throws {
    var messages: [String] = []
    do { _ = try Announce.parse(["--pitch", "101", "x"]).request(environment: [:]) } catch {
      messages.append(Announce.message(for: error))
    }
    do {
      _ = try Announce.parse(["x"]).request(environment: ["ANNOUNCE_RATE": "101"])
    } catch {
      messages.append(Announce.message(for: error))
    }
    do { _ = try AnnouncementLine.decode("{\"text\":\"x\",\"volume\":101}") } catch {
      messages.append(error.description)
    }
    #expect(messages.count == 3)
    for message in messages {
      #expect(message.contains("a whole number from -100 to 100"), "\(message)")
    }
  }
}
