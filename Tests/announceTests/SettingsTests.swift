import AnnouncerCore
import Foundation
import Testing

@testable import announce

/// The declarations of ``Settings``: each reaches `--help`, its variable, its JSON field
/// and the documentation, so that a setting added in one place is complete.
@Suite struct SettingsTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  func document(_ path: String) throws -> String {
    try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

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

  @Test func everyJSONFieldIsDocumented() throws {
    let readme = try section(of: document("README.md"), from: "### JSON input", to: "\n### ")
    let manPage = try section(of: document("man/announce.1"), from: ".Ss JSON input", to: "\n.Ss ")
    let keys = Settings.all.compactMap(\.jsonKey)
    #expect(keys.count >= 10)
    for key in keys {
      #expect(readme.contains("`\(key)`"), "\"\(key)\" is not in the README's JSON input")
      #expect(manPage.contains(".Cm \(key)"), "\"\(key)\" is not in the man page's JSON input")
    }
  }

  @Test func everyVariableIsDocumentedAndAnInvalidValueNamesIt() throws {
    let readme = try section(of: document("README.md"), from: "### Environment", to: "\n### ")
    let manPage = try section(of: document("man/announce.1"), from: ".Sh ENVIRONMENT", to: "\n.Sh ")
    let variables = Settings.all.compactMap(\.variable)
    #expect(variables.count >= 7)
    for variable in variables {
      #expect(readme.contains("`\(variable)`"), "\(variable) is not in the README's Environment")
      #expect(manPage.contains(".It Ev \(variable)"), "\(variable) is not in the man page's ENVIRONMENT")
      do {
        _ = try Announce.$environment.withValue([variable: "not valid"]) { try Announce.parse(["x"]) }
        Issue.record("\(variable)=not valid was accepted")
      } catch {
        let message = Announce.message(for: error)
        #expect(Announce.exitCode(for: error).rawValue == 64)
        #expect(message.hasPrefix("\(variable)=not valid is not "), "\(message)")
        #expect(message.hasSuffix(", or unset it."), "\(message)")
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
    do { _ = try Announce.parse(["--pitch", "101", "x"]) } catch {
      messages.append(Announce.message(for: error))
    }
    do {
      _ = try Announce.$environment.withValue(["ANNOUNCE_RATE": "101"]) { try Announce.parse(["x"]) }
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
