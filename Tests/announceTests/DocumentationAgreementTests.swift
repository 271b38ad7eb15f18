import Foundation
import Testing

@testable import announce

/// The manual page and the README say what the code does: every option of every command
/// with its default and range, every environment variable, and every exit status. The
/// options come from the built binary's own description of itself, so a new option, a
/// changed default or a changed range fails here until the documentation says it.
@Suite struct DocumentationAgreementTests {
  /// Every exit status the code can produce. This is the one list the tests take from
  /// the code; point it at the type that owns the statuses when that changes.
  static func codeExitStatuses() -> Set<Int32> {
    let results: [RunResult] =
      [
        .listed, .detached, .checked, .failed(.usage("")), .failed(.badInput("")),
        .failed(.serviceUnavailable("")), .failed(.notDelivered("")),
      ] + HandledSignal.allCases.map { .interrupted($0) }
    return Set(results.map(ExitStatus.of))
  }

  /// Where the man page describes the options of the command chosen by `words`: the
  /// OPTIONS section for `announce` itself, and a subsection of COMMANDS for the others.
  static func manLines(for words: [String], in page: ManPage) -> [String] {
    switch words {
    case []: page.section("OPTIONS")
    case ["init"]: page.subsection("announce init bash | zsh | fish")
    default: page.subsection("announce " + words.joined(separator: " "))
    }
  }

  /// The options of `info` that a user can give: those `--help` shows, without the
  /// `--help` every subcommand has (the page names it once, for `announce`).
  static func documentedOptions(of info: ToolInfo, words: [String]) -> [ToolInfo.Argument] {
    (info.command.arguments ?? []).filter { argument in
      argument.kind != "positional" && argument.shouldDisplay
        && (words.isEmpty || !argument.typedNames.contains("--help"))
    }
  }

  @Test(arguments: ToolInfo.commands)
  func everyOptionIsInTheManPageWithItsDefaultAndRange(words: [String]) throws {
    let page = try ManPage()
    let info = try ToolInfo.of(words)
    let command = (["announce"] + words).joined(separator: " ")
    let lines = Self.manLines(for: words, in: page)
    try #require(!lines.isEmpty, "man/announce.1 has no place for the options of \(command)")
    let items = ManPage.items(in: lines).filter { !ManPage.optionNames(inItem: $0.head).isEmpty }
    let options = Self.documentedOptions(of: info, words: words)
    #expect(!options.isEmpty, "\(command) has no options, so the dump was not read")
    for option in options {
      let names = Set(option.typedNames)
      guard let item = items.first(where: { Set(ManPage.optionNames(inItem: $0.head)) == names }) else {
        Issue.record("\(command) \(option.typedNames.joined(separator: ", ")) has no item in the man page")
        continue
      }
      let text = ManPage.plainText([item.head] + item.body)
      let name = "\(command) \(option.typedNames.last ?? "")"
      if let value = option.defaultValue, option.kind == "option" {
        #expect(
          text.contains("The default is \(value)"),
          "\(name): the man page does not say its default is \(value)")
      }
      if let (value, variable) = option.helpDefault {
        if let value {
          #expect(
            text.contains("The default is \(value)"),
            "\(name): the man page does not say its default is \(value)")
        }
        if let variable {
          #expect(text.contains(variable), "\(name): the man page does not name \(variable)")
        }
      }
      if let (low, high) = option.range {
        #expect(
          text.contains("\(low) to \(high)"),
          "\(name): the man page does not give the range \(low) to \(high)")
      }
      for value in option.allValues ?? [] {
        #expect(text.contains(value), "\(name): the man page does not name the value \(value)")
      }
    }
    // And no option is documented that the command does not have.
    let inCode = Set(options.map { Set($0.typedNames) })
    for item in items where !inCode.contains(Set(ManPage.optionNames(inItem: item.head))) {
      Issue.record("the man page documents \(item.head) for \(command), which has no such option")
    }
  }

  @Test func everyCommandHasItsSubsectionInTheManPage() throws {
    let page = try ManPage()
    for words in ToolInfo.commands where !words.isEmpty {
      #expect(
        !Self.manLines(for: words, in: page).isEmpty,
        "no subsection for announce \(words.joined(separator: " "))")
    }
  }

  /// The environment variables the sources read: every `ANNOUNCE_` name, and any name
  /// looked up in an environment on the line where it is written, directly or through a
  /// local `value(_:)` that reads one (as `SpokenLanguage` reads the locale's). The targets
  /// that only tests link (the test doubles, the property tests' generators) are no part
  /// of announce.
  static func variablesReadByTheCode() throws -> Set<String> {
    let sources = PackageFile.root.appendingPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    let testsOnly = ["/Sources/AnnouncerTesting/", "/Sources/PropertyTesting/"]
    var names: Set<String> = []
    for case let file as URL in files
    where file.pathExtension == "swift" && !testsOnly.contains(where: file.path.contains) {
      for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
        for match in line.matches(of: /"(ANNOUNCE_[A-Z][A-Z0-9_]*)"/) { names.insert(String(match.1)) }
        guard line.contains("environment[") || line.contains("getenv(") || line.contains("value(\"") else {
          continue
        }
        for match in line.matches(of: /"([A-Z][A-Z0-9_]*)"/) { names.insert(String(match.1)) }
      }
    }
    return names
  }

  @Test func everyVariableTheCodeReadsIsInTheManPagesEnvironment() throws {
    let variables = try Self.variablesReadByTheCode().union(["NO_COLOR"])
    #expect(
      variables.isSuperset(of: [
        "ANNOUNCE_TIMEOUT", "SPEECHD_ADDRESS", "XDG_STATE_HOME", "HOME", "BRLAPI_HOST", "BRLAPI_AUTH",
        "LANGUAGE",
        "LC_ALL", "LC_MESSAGES", "LANG",
      ]))
    let environment = Set(try ManPage().section("ENVIRONMENT"))
    let named = Set(
      environment.filter { $0.hasPrefix(".It Ev ") }.flatMap {
        $0.dropFirst(".It Ev ".count).split(separator: " ").filter { $0 != "," }.map(String.init)
      })
    let missing = variables.sorted().filter { !named.contains($0) }
    #expect(missing == [], "read by the code but not in the man page's ENVIRONMENT")
  }

  /// The statuses a list gives, from lines such as `.It 64` or `- 129, 130, 143: …`.
  static func statuses(in lines: [some StringProtocol], prefix: String) -> Set<Int32> {
    var statuses: Set<Int32> = []
    for line in lines where line.hasPrefix(prefix) {
      let head = line.dropFirst(prefix.count).prefix { $0 != ":" && $0.isLetter == false }
      for number in head.split(whereSeparator: { !$0.isNumber }) {
        if let status = Int32(number) { statuses.insert(status) }
      }
    }
    return statuses
  }

  @Test func theManPagesExitStatusListsEveryStatusOfTheCodeAndNoOther() throws {
    let section = try ManPage().section("EXIT STATUS")
    #expect(Self.statuses(in: section, prefix: ".It ") == Self.codeExitStatuses())
  }

  /// The README's short list, in its section on scripts, and the full one in docs/usage.md.
  @Test(arguments: [("README.md", "## In scripts"), ("docs/usage.md", "## Exit status")])
  func theStatusListHasEveryStatusOfTheCodeAndNoOther(document: String, heading: String) throws {
    let text = try PackageFile.text(document)
    let start = try #require(text.range(of: "\n\(heading)\n"), "\(document) has no section \(heading)")
    let section = text[start.upperBound...].components(separatedBy: "\n## ")[0]
    let lines = section.split(separator: "\n")
    #expect(Self.statuses(in: lines, prefix: "- ") == Self.codeExitStatuses(), "\(document), \(heading)")
  }

  /// The README is read aloud: at most 300 lines, and a listener at 250 words a minute
  /// reaches the shell hook's set-up within 90 seconds (375 words).
  @Test func theReadmeIsShortAndReachesTheShellHookWithinNinetySeconds() throws {
    let readme = try PackageFile.text("README.md")
    #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 300)
    let hook = try #require(readme.range(of: "eval \"$(announce init bash)\""), "no shell hook set-up")
    let words = readme[..<hook.lowerBound].split(whereSeparator: \.isWhitespace).count
    #expect(words <= 375, "\(words) words before the shell hook's set-up")
  }

  /// A newcomer learns what announce is before any command, then installs it, checks
  /// that it works, and sets up the shell hook, in that order.
  @Test func theReadmeSaysWhatAnnounceIsThenInstallCheckAndHook() throws {
    let readme = try PackageFile.text("README.md")
    let firstCommand = try #require(readme.range(of: "```"))
    let intro = readme[..<firstCommand.lowerBound]
    #expect(intro.contains("announce speaks"), "no sentence on what announce is before the first command")
    let order = [
      "## Install", "## Check that it works", "announce \"Hello\"", "announce doctor",
      "eval \"$(announce init bash)\"",
    ]
    let places = try order.map { heading in
      try #require(readme.range(of: heading), "README.md has no \(heading)").lowerBound
    }
    #expect(places == places.sorted(), "README.md does not go install, check, shell hook")
    #expect(readme.contains("550 MB"), "the README does not say what scripts/test does to the machine")
    #expect(readme.contains("To upgrade"), "the README does not say how to upgrade")
  }

  @Test func theReadmeCopiesNoMeasuredTimes() throws {
    let readme = try PackageFile.text("README.md")
    let times = readme.matches(of: /[0-9]+(\.[0-9]+)? ?(ms|milliseconds)\b/).map { String(readme[$0.range]) }
    #expect(times.isEmpty, "measured times belong in BENCHMARKS.md or docs/, not the README: \(times)")
  }

  @Test func theManPageLinksToMeasurementsInsteadOfCopyingThem() throws {
    let page = try PackageFile.text("man/announce.1")
    #expect(!page.contains("median"), "the man page gives a measured median; link to BENCHMARKS.md instead")
    #expect(page.contains("BENCHMARKS.md"), "the man page does not say where the measurements are")
  }
}
