import Foundation
import Testing

import AnnouncerCore

@testable import announce

/// The pages in `docs/`, the README, CONTRIBUTING.md and the CHANGELOG say what the code
/// does, as ``DocumentationAgreementTests`` holds the man page to it: every link leads to
/// a file of the package, every code block is closed, every option and variable is in the
/// usage guide, and the CHANGELOG names every option a user can give.
@Suite struct DocumentsAgreeTests {
  /// Every Markdown document a user or contributor reads.
  static let documents: [String] = {
    let docs =
      (try? FileManager.default.contentsOfDirectory(
        atPath: PackageFile.root.appendingPathComponent("docs").path)) ?? []
    return ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "BENCHMARKS.md"]
      + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }()

  /// The links of `text`: `[text](target)`, without those inside code.
  static func links(in text: String) -> [(text: String, target: String)] {
    withoutCode(text).matches(of: /\[([^\]]+)\]\(([^)\s]+)\)/).map { (String($0.1), String($0.2)) }
  }

  /// `text` without its fenced code blocks and inline code.
  static func withoutCode(_ text: String) -> String {
    var prose: [Substring] = []
    var inFence = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inFence.toggle()
        continue
      }
      if !inFence { prose.append(line) }
    }
    return prose.joined(separator: "\n").replacing(/`[^`\n]*`/, with: "")
  }

  @Test func theDocumentListIsRead() {
    #expect(Self.documents.contains("docs/usage.md"))
    #expect(Self.documents.count >= 8)
  }

  @Test(arguments: documents)
  func everyLinkLeadsToAFileOfThePackage(document: String) throws {
    let text = try PackageFile.text(document)
    let folder = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
    for link in Self.links(in: text) where !link.target.contains("://") && !link.target.hasPrefix("mailto:") {
      let path = String(link.target.prefix { $0 != "#" })
      guard !path.isEmpty else { continue }
      let joined = (folder == "." ? path : folder + "/" + path)
      let resolved = PackageFile.root.appendingPathComponent(joined).standardizedFileURL
      #expect(
        resolved.path.hasPrefix(PackageFile.root.standardizedFileURL.path + "/"),
        "\(document): the link to \(link.target) leads out of the package")
      #expect(
        FileManager.default.fileExists(atPath: resolved.path),
        "\(document): the link to \(link.target) leads to no file")
    }
  }

  /// Read aloud, "docs slash shell dash hooks dot md" is noise: a link says what it
  /// leads to in words.
  @Test(arguments: documents)
  func noLinkTextIsAFilePath(document: String) throws {
    let text = try PackageFile.text(document)
    for link in Self.links(in: text) {
      #expect(
        link.text.firstMatch(of: /(^|\/)[\w.-]+\.(md|swift|sh|1|txt|json)$|\//) == nil,
        "\(document): the link text \"\(link.text)\" is a file path; say in words what it leads to")
    }
  }

  @Test(arguments: documents)
  func everyCodeBlockIsClosed(document: String) throws {
    let fences = try PackageFile.text(document).split(separator: "\n").filter { $0.hasPrefix("```") }
    #expect(fences.count % 2 == 0, "\(document) has a code block that is never closed")
    // A block opens with its language and closes with a bare fence, so an opening fence
    // where a closing one belongs shows a block that swallowed the prose after it.
    for (index, fence) in fences.enumerated() where index % 2 == 1 {
      #expect(fence == "```", "\(document): a closing fence, \(fence), opens a new block")
    }
  }

  /// The usage guide's summary names every option of every command, braille's and
  /// doctor's included.
  /// The commands the shell and tmux hooks run, which nobody types: the manual page
  /// describes them, the guides for people do not.
  static let internalCommands: Set<[String]> = [["hook-finished"], ["tmux-alert"]]

  /// The commands people type; a named list, since Swift 6.0.3 crashes on a closure inside
  /// `@Test(arguments:)`.
  static let typedCommands = ToolInfo.commands.filter { !internalCommands.contains($0) }

  @Test(arguments: typedCommands)
  func theUsageGuideNamesEveryOption(words: [String]) throws {
    let guide = try PackageFile.text("docs/usage.md")
    let info = try ToolInfo.of(words)
    let options = DocumentationAgreementTests.documentedOptions(of: info, words: words)
    #expect(!options.isEmpty)
    for option in options {
      guard let name = option.typedNames.last else { continue }
      #expect(
        guide.contains(name),
        "docs/usage.md does not name \((["announce"] + words + [name]).joined(separator: " "))")
    }
  }

  @Test func theUsageGuidesEnvironmentNamesEveryVariableTheCodeReads() throws {
    let guide = try PackageFile.text("docs/usage.md")
    let start = try #require(
      guide.range(of: "\n### Environment\n"), "docs/usage.md has no Environment section")
    let section = guide[start.upperBound...].components(separatedBy: "\n### ")[0]
    let variables = try DocumentationAgreementTests.variablesReadByTheCode().filter {
      $0.hasPrefix("ANNOUNCE_")
    }
    #expect(!variables.isEmpty)
    let missing = variables.sorted().filter { !section.contains($0) }
    #expect(missing == [], "read by the code but not in docs/usage.md's Environment")
  }

  /// Every command and every reason an announcement can be given up for came in some
  /// version, so the CHANGELOG names each; one it does not name is a change that landed
  /// after the CHANGELOG was written.
  @Test func theChangelogNamesEveryCommandAndReason() throws {
    let changelog = try PackageFile.text("CHANGELOG.md")
    let commands = ToolInfo.commands.filter { !$0.isEmpty && !Self.internalCommands.contains($0) }
    var missing = commands.map { (["announce"] + $0).joined(separator: " ") }.filter {
      !changelog.contains($0)
    }
    missing += GiveUpReason.allCases.map(\.rawValue).filter { !changelog.contains("`\($0)`") }
    #expect(missing.sorted() == [], "not in CHANGELOG.md")
  }

  @Test func theChangelogHasAnUnreleasedSectionAboveTheVersions() throws {
    let changelog = try PackageFile.text("CHANGELOG.md")
    let headings = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") }
    #expect(
      headings.first == "## [Unreleased]", "the newest section of CHANGELOG.md is \(headings.first ?? "none")"
    )
    let version = try PackageFile.text("VERSION").trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(
      headings.contains { $0.hasPrefix("## [\(version)]") }, "CHANGELOG.md has no section for \(version)")
  }

  /// What the README promises of the replay key agrees with the shell hooks guide: it
  /// works in shells inside tmux, and only `announce init tmux` refuses it.
  @Test func theReadmeAndTheShellHooksGuideAgreeOnTheReplayKeyInTmux() throws {
    let readme = try PackageFile.text("README.md")
    let guide = try PackageFile.text("docs/shell-hooks.md")
    #expect(guide.contains("announce init tmux --replay-key KEY` is a usage error"))
    #expect(!readme.contains("not in tmux"), "the README says the replay key does not work in tmux")
  }

  /// Every kind of event the announcer reports. The switch in ``eventName(_:)`` does not
  /// compile when a kind is added, so this list is kept whole by hand beside it.
  static let announcerEventKinds: [AnnouncerEvent.Kind] = [
    .queued, .attempt, .begin, .mark(""), .interrupted, .waitingForQuiet, .waitingForConnection,
    .waitingForTurn, .merged(into: AnnouncementID(1)), .spoken(duration: .zero), .gaveUp(.stalled),
  ]

  static func eventName(_ kind: AnnouncerEvent.Kind) -> String {
    switch kind {
    case .queued, .attempt, .begin, .mark, .interrupted, .waitingForQuiet, .waitingForConnection,
      .waitingForTurn, .merged, .spoken, .gaveUp:
      kind.name
    }
  }

  /// Every event name `--json` can print, and every reason a `gave-up` or `not-shown`
  /// event can give, in the usage guide's JSON section and the man page's JSON EVENTS.
  @Test(arguments: [
    ("docs/usage.md", "With `--json`, each event is printed", "\n### "),
    ("man/announce.1", ".Sh JSON EVENTS", "\n.Sh "),
  ])
  func everyEventAndReasonIsDocumented(document: String, start: String, end: String) throws {
    let text = try PackageFile.text(document)
    let from = try #require(text.range(of: start), "\(document) has no \(start)")
    let section = text[from.upperBound...]
    let body = section.range(of: end).map { section[..<$0.lowerBound] } ?? section
    let names =
      Self.announcerEventKinds.map(Self.eventName) + [
        FlashReport.shownEvent, FlashReport.notShownEvent, "acknowledged", "rejected",
      ]
    let reasons = GiveUpReason.allCases.map(\.rawValue) + BrailleFailure.allCases.map(\.rawValue)
    let missing = (names + reasons).filter { !body.contains($0) }
    #expect(missing == [], "not in \(document)'s \(start)")
  }

  /// How long a writer waits for the log's lock, as every document that gives it says.
  @Test(arguments: ["docs/usage.md", "man/announce.1"])
  func theLockWaitIsTheCodes(document: String) throws {
    let seconds = OutcomeLog.lockWait.components.seconds
    let text = try PackageFile.text(document).replacing("\n", with: " ")
    let said = text.matches(of: /waits? at most ([0-9]+) seconds? for the lock/).map { Int64($0.1) }
    #expect(!said.isEmpty, "\(document) does not say how long a writer waits for the lock")
    #expect(
      said.allSatisfy { $0 == seconds }, "\(document) gives the lock's wait as \(said), not \(seconds) s")
  }

  /// The first line of `--verbose`, as the command writes it.
  static let verboseFirstLine = "Connected to speech-dispatcher at "

  @Test func theVerboseFirstLineIsTheCodes() throws {
    let run = try PackageFile.text("Sources/announce/Command/AnnounceRun.swift")
    #expect(
      run.contains("\"\(Self.verboseFirstLine){address}."),
      "AnnounceRun no longer says \(Self.verboseFirstLine)")
  }

  /// The first line of `--verbose`, as the examples in the documents show it.
  @Test(arguments: documents)
  func everyVerboseExampleStartsWithTheCodesFirstLine(document: String) throws {
    let lines = try PackageFile.text(document).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    for (index, line) in lines.enumerated()
    where line.hasPrefix("$ announce --verbose") && !line.contains("--detach") && index + 1 < lines.count {
      #expect(
        lines[index + 1].hasPrefix(Self.verboseFirstLine),
        "\(document): the example after \(line.prefix(40)) starts \(lines[index + 1].prefix(40))")
    }
  }
}
