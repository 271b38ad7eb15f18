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

  /// Every variable the code reads, and every one the manual page's ENVIRONMENT describes
  /// (the locale's, BrlAPI's, `NO_COLOR`), is in the usage guide's Environment too.
  @Test func theUsageGuidesEnvironmentNamesEveryVariableTheCodeReads() throws {
    let guide = try PackageFile.text("docs/usage.md")
    let start = try #require(
      guide.range(of: "\n### Environment\n"), "docs/usage.md has no Environment section")
    let section = guide[start.upperBound...].components(separatedBy: "\n### ")[0]
    let inTheManPage = try ManPage().section("ENVIRONMENT").filter { $0.hasPrefix(".It Ev ") }.flatMap {
      $0.dropFirst(".It Ev ".count).split(separator: " ").filter { $0 != "," }.map(String.init)
    }
    let variables = try DocumentationAgreementTests.variablesReadByTheCode().union(inTheManPage)
    #expect(variables.isSuperset(of: ["ANNOUNCE_TIMEOUT", "BRLAPI_HOST", "LANGUAGE", "LC_ALL", "LANG"]))
    let missing = variables.sorted().filter { !section.contains("`\($0)`") }
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

/// The places where the documents said one thing and the code another, each held to the
/// code, or to the other document, so that it cannot come back.
extension DocumentsAgreeTests {
  /// The lines of `text` from the first line that contains `start` up to the first line
  /// after it that contains `end` (that line included), joined by spaces.
  static func passage(of text: String, from start: String, to end: String) throws -> [String] {
    let lines = text.components(separatedBy: "\n")
    let first = try #require(lines.firstIndex { $0.contains(start) }, "no line with \(start)")
    let last = try #require(
      lines[first...].firstIndex { $0.contains(end) }, "no line with \(end) after \(start)")
    return Array(lines[first...last])
  }

  /// The English phrases `localized("…")` marks in the source file at `path`.
  static func markedPhrases(in path: String) throws -> [String] {
    try PackageFile.text(path).matches(of: /localized\("([^"]*)"\)/).map { String($0.1) }
  }

  /// The outcomes `announce history` writes, speech's and braille's, each with its replay
  /// form (each channel's words, which `HistoryWords.outcome(of:)` takes), and the reasons
  /// in a few words of both channels.
  static func historyWords() throws -> (outcomes: [String], reasons: [String]) {
    let outcomes = try markedPhrases(in: "Sources/announce/Delivery/Channel.swift")
    let braille = try markedPhrases(in: "Sources/announce/Braille/BrailleFailure+Words.swift")
    let notification = try markedPhrases(in: "Sources/announce/Notify/NotificationFailure.swift")
    let reasons = GiveUpReason.allCases.map(\.inAFewWords) + braille + notification
    return (outcomes, Array(Set(reasons)).sorted())
  }

  /// "a format a script can rely on": both descriptions of `announce history`'s lines give
  /// every outcome and every reason, braille's too.
  @Test(arguments: [
    ("docs/usage.md", "**`announce history`** prints", "With nothing to list", "REASON"),
    ("man/announce.1", "lists the last outcomes, newest first", "With nothing to list", "reason"),
  ])
  func theHistoryLineFormatNamesEveryOutcomeAndReason(
    document: String, start: String, end: String, placeholder: String
  ) throws {
    let text = try PackageFile.text(document)
    let lines = try Self.passage(of: text, from: start, to: end)
    // In the man page, `\&)` keeps a closing parenthesis inside its quotes.
    let passage = (document.hasSuffix(".1") ? ManPage.plainText(lines) : lines.joined(separator: " "))
      .replacing(/\s+/, with: " ").replacing(" \\&)", with: ")")
    let (outcomes, reasons) = try Self.historyWords()
    #expect(outcomes.count == 12, "HistoryWords.outcome(of:) was not read: \(outcomes)")
    let phrases = outcomes.map { $0.replacing("{reason}", with: placeholder) } + reasons
    let missing = phrases.filter { !passage.contains($0) }
    #expect(missing == [], "\(document)'s history line format leaves these out")
  }

  /// `tmux-alert --interval` is read as a duration (`DurationText`), so what it falls back
  /// from is "not a duration", in its help and in the manual page alike.
  @Test func theTmuxAlertIntervalIsSaidToBeADuration() throws {
    let source = try PackageFile.text("Sources/announce/ShellHooks/TmuxAlert.swift")
    #expect(source.contains("DurationText.seconds(in: interval)"), "tmux-alert no longer reads a duration")
    let option = try #require(
      DocumentationAgreementTests.documentedOptions(
        of: try ToolInfo.of(["tmux-alert"]), words: ["tmux-alert"]
      )
      .first { $0.typedNames.contains("--interval") })
    let help = option.abstract ?? ""
    let item = try #require(
      ManPage.items(in: try ManPage().subsection("announce tmux-alert")).first {
        $0.head.contains("interval")
      })
    let manual = ManPage.plainText([item.head] + item.body)
    for (place, text) in [("tmux-alert --help", help), ("man/announce.1", manual)] {
      #expect(!text.contains("not a number"), "\(place) calls the interval a number: \(text)")
      #expect(text.contains("not a duration"), "\(place) does not say the interval is a duration: \(text)")
    }
  }

  /// The bullets of the CHANGELOG's `[Unreleased]` section, each on one line.
  static func unreleasedBullets() throws -> [String] {
    let changelog = try PackageFile.text("CHANGELOG.md")
    let start = try #require(changelog.range(of: "## [Unreleased]\n"))
    let section = changelog[start.upperBound...].components(separatedBy: "\n## [")[0]
    var bullets: [String] = []
    for line in section.split(separator: "\n") {
      if line.hasPrefix("- ") {
        bullets.append(String(line.dropFirst(2)))
      } else if line.hasPrefix("  "), !bullets.isEmpty {
        bullets[bullets.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
      }
    }
    return bullets
  }

  /// Changes that landed after 0.3.0, each with words that a bullet saying it must hold.
  static let changesSinceTheLastVersion: [(change: String, words: [String])] = [
    ("a replay whose voice is gone is spoken in the default voice", ["replay", "voice", "default voice"]),
    ("braille shows the words of SSML, never its markup", ["braille", "SSML", "markup"]),
    ("--input json with braille alone is a usage error", ["--input json", "braille alone", "usage error"]),
  ]

  @Test func theUnreleasedSectionNamesTheChangesSinceTheLastVersion() throws {
    let bullets = try Self.unreleasedBullets()
    #expect(bullets.count > 10, "the [Unreleased] section of CHANGELOG.md was not read")
    for (change, words) in Self.changesSinceTheLastVersion {
      #expect(
        bullets.contains { bullet in words.allSatisfy { bullet.localizedCaseInsensitiveContains($0) } },
        "CHANGELOG.md's [Unreleased] does not say: \(change)")
    }
  }

  /// Every file that lists the statuses or names of the signals announce handles.
  static let signalDocuments = documents + ["man/announce.1", "Sources/announce/Command/ExitStatus.swift"]

  /// A list of signal statuses, such as "129, 130, 131 or 143" or "129/130/143", names
  /// every signal `HandledSignal` handles; a count of them in words ("these four signals")
  /// is the count of the code.
  @Test(arguments: signalDocuments)
  func everyListOfSignalStatusesNamesEveryHandledSignal(document: String) throws {
    let text = try PackageFile.text(document).replacing(/\s+/, with: " ")
    let statuses = Set(HandledSignal.allCases.map { 128 + Int($0.number) })
    #expect(statuses.count == 4)
    for match in text.matches(of: /\b1[2-4][0-9](?:(?:, |,? or |,? and |\/| \()1[2-4][0-9]\)?)+/) {
      let listed = String(text[match.range])
      let found = Set(listed.matches(of: /1[2-4][0-9]/).compactMap { Int(listed[$0.range]) })
      guard found.isSubset(of: statuses.union([128])) else { continue }
      #expect(found == statuses, "\(document): \(listed) leaves out \(statuses.subtracting(found).sorted())")
    }
    let words = ["two": 2, "three": 3, "four": 4, "five": 5]
    for match in text.matches(of: /\b(two|three|four|five) signals\b/) {
      #expect(
        words[String(match.1)] == statuses.count,
        "\(document) says \(match.1) signals; announce handles \(statuses.count)")
    }
  }

  /// The ordinal words the examples' prose uses for the commands of a transcript.
  static let ordinals = ["first": 0, "second": 1, "third": 2, "fourth": 3]

  /// Where the usage guide's Examples tell in prose what a transcript shows, the prose
  /// says it of the right command: "the first announcement … is then spoken again" only
  /// of a command whose transcript has a second attempt, and "not retried" only of one
  /// whose transcript has none.
  @Test func theExamplesProseSaysWhatTheirTranscriptShows() throws {
    let guide = try PackageFile.text("docs/usage.md")
    let start = try #require(guide.range(of: "\n## Examples\n"), "docs/usage.md has no Examples")
    let section = guide[start.upperBound...].components(separatedBy: "\n## ")[0]
    var checked = 0
    // Each transcript with the prose that leads into it and the prose that follows it.
    let parts = section.components(separatedBy: "```")
    for index in stride(from: 1, to: parts.count, by: 2) {
      let transcript = parts[index]
      var runs: [String] = []
      for line in transcript.split(separator: "\n") {
        if line.hasPrefix("$ announce") {
          runs.append("")
        } else if !runs.isEmpty {
          runs[runs.count - 1] += line + "\n"
        }
      }
      let prose = (parts[index - 1] + " " + (index + 1 < parts.count ? parts[index + 1] : ""))
        .replacing(/\s+/, with: " ")
      for clause in prose.split(whereSeparator: { ".;:".contains($0) }) {
        guard let match = clause.firstMatch(of: /\b(first|second|third|fourth) announcement\b/),
          let which = Self.ordinals[String(match.1)]
        else { continue }
        try #require(
          which < runs.count, "the Examples speak of a \(match.1) announcement the transcript lacks")
        let retried = runs[which].contains(": attempt 2")
        if clause.contains("spoken again") {
          checked += 1
          #expect(
            retried,
            "the Examples say the \(match.1) announcement was spoken again; its transcript has no second attempt"
          )
        }
        if clause.contains("not retried") {
          checked += 1
          #expect(
            !retried,
            "the Examples say the \(match.1) announcement was not retried; its transcript retries it")
        }
      }
    }
    #expect(checked >= 2, "the Examples' prose about retries was not found")
  }

  /// The Debian packages `scripts/setup` always installs when they are missing: its
  /// `run_time` and `packages` arrays, without the variables they include.
  static func packagesSetupInstalls() throws -> [String] {
    let setup = try PackageFile.text("scripts/setup")
    var names: [String] = []
    for match in setup.matches(of: /\n(?:run_time|packages)=\(([^)]*)\)/) {
      names += match.1.split(separator: " ").map(String.init).filter { !$0.contains("$") }
    }
    return names
  }

  /// The packaging notes list what setup installs, and setup's own header says what
  /// building needs: gettext (msgfmt) too, since the catalogs are compiled with it.
  @Test func whatSetupInstallsIsListedWhereItIsDescribed() throws {
    let packages = try Self.packagesSetupInstalls()
    #expect(packages.contains("git") && packages.contains("speech-dispatcher"), "scripts/setup was not read")
    let notes = try PackageFile.text("docs/packaging.md")
    let start = try #require(notes.range(of: "\n## What scripts/setup installs\n"))
    let section = notes[start.upperBound...].components(separatedBy: "\n## ")[0]
    let missing = packages.filter { !section.contains("`\($0)`") }
    #expect(missing == [], "docs/packaging.md's list of what setup installs leaves these out")
    let header = try PackageFile.text("scripts/setup").split(separator: "\n").prefix { $0.hasPrefix("#") }
      .joined(separator: " ")
    let tools = packages.filter { !$0.hasPrefix("lib") && !$0.contains("speech") && !$0.contains("espeak") }
    #expect(tools.contains("make"))
    let unnamed = tools.filter { !header.contains($0) }
    #expect(unnamed == [], "scripts/setup's header does not name these tools that building needs")
  }

  /// `--sound-icon` is played before each attempt (the client sends it with every
  /// message), at `message` priority or `important` with an important announcement: its
  /// help, the manual page and the usage guide say so alike.
  @Test func theSoundIconIsDescribedAsTheClientSendsIt() throws {
    let client = try PackageFile.text("Sources/AnnouncerCore/Speechd/SpeechdClient.swift")
    #expect(client.contains("request.priority == .important ? .important : .message"))
    let option = try #require(
      DocumentationAgreementTests.documentedOptions(of: try ToolInfo.of([]), words: [])
        .first { $0.typedNames.contains("--sound-icon") })
    let item = try #require(
      ManPage.items(in: try ManPage().section("OPTIONS")).first { $0.head.contains("sound-icon") })
    let manual = ManPage.plainText([item.head] + item.body)
    let guide = try PackageFile.text("docs/usage.md").split(separator: "\n").first {
      $0.contains("`--sound-icon NAME`:")
    }
    let usage = String(try #require(guide, "docs/usage.md has no item for --sound-icon"))
    for (place, text) in [
      ("--help", option.abstract ?? ""), ("man/announce.1", manual), ("docs/usage.md", usage),
    ] {
      #expect(
        text.contains("before each attempt"), "\(place) does not say the icon plays before each attempt")
    }
    for (place, text) in [("man/announce.1", manual), ("docs/usage.md", usage)] {
      #expect(
        text.replacing("`", with: "").contains("important when the announcement"),
        "\(place) does not say the icon goes at important priority with an important announcement")
    }
  }

  /// The entries of CONTRIBUTING.md's folder map: the folder each names, and its text.
  static func folderMap() throws -> [(folder: String, text: String)] {
    let guide = try PackageFile.text("CONTRIBUTING.md")
    let start = try #require(guide.range(of: "\n## A map of the folders\n"))
    let section = guide[start.upperBound...].components(separatedBy: "\n## ")[0]
    return section.split(separator: "\n").compactMap { line in
      guard let match = line.wholeMatch(of: /- `([^`]+)`: (.*)/) else { return nil }
      return (String(match.1), String(match.2))
    }
  }

  /// The folders of `Sources`, two levels deep, and the Swift files under each.
  static func sourceFolders() throws -> [String: [String]] {
    let root = PackageFile.root.appendingPathComponent("Sources")
    var folders: [String: [String]] = [:]
    let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
    for case let file as URL in files {
      let parts = file.path.dropFirst(root.path.count + 1).split(separator: "/").map(String.init)
      guard parts.count >= 2 else { continue }
      let isFolder = (try? file.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
      let key = "Sources/" + parts.prefix(parts.count >= 3 ? 2 : 1).joined(separator: "/")
      if isFolder && parts.count == 2 {
        folders["Sources/" + parts.joined(separator: "/"), default: []] += []
      }
      if file.pathExtension == "swift" {
        folders[key, default: []].append(file.deletingPathExtension().lastPathComponent)
      }
    }
    return folders
  }

  /// The folder map names every folder of the sources and every command, and a type it
  /// names under a folder has its file in that folder.
  @Test func theFolderMapNamesEveryFolderCommandAndTypeInItsPlace() throws {
    let map = try Self.folderMap()
    let folders = try Self.sourceFolders()
    #expect(folders.keys.contains("Sources/announce/Delivery"), "the sources were not read")
    let mapped = Set(map.map(\.folder))
    let unmapped = folders.keys.filter { !mapped.contains($0) && $0.split(separator: "/").count == 3 }
    #expect(unmapped.sorted() == [], "CONTRIBUTING.md's folder map leaves these out")
    let fileOwners = folders.reduce(into: [String: String]()) { owners, entry in
      for name in entry.value { owners[name] = entry.key }
    }
    // A type named in another folder's entry is a reference to it (the driver's
    // `ActionLoop` that braille shares), so the entry of its own folder must name it.
    let named = map.map { entry in
      (folder: entry.folder, names: Set(entry.text.matches(of: /`([A-Z][A-Za-z]+)`/).map { String($0.1) }))
    }
    for entry in named where entry.folder.hasPrefix("Sources/") {
      for name in entry.names.sorted() {
        guard let owner = fileOwners[name] else { continue }
        let inItsPlace = named.contains { other in
          other.names.contains(name) && (owner == other.folder || owner.hasPrefix(other.folder + "/"))
        }
        #expect(
          inItsPlace,
          "CONTRIBUTING.md names \(name) under \(entry.folder), and not under \(owner), where its file is")
      }
    }
    let sources = try #require(
      FileManager.default.enumerator(
        at: PackageFile.root.appendingPathComponent("Sources/announce"), includingPropertiesForKeys: nil))
    var commands: [String] = []
    for case let file as URL in sources where file.pathExtension == "swift" {
      for match in try String(contentsOf: file, encoding: .utf8).matches(of: /static let name = "([a-z-]+)"/)
      {
        commands.append(String(match.1))
      }
    }
    #expect(commands.contains("hook-finished"))
    let text = map.map(\.text).joined(separator: " ")
    let missing = commands.filter { !text.contains("\($0)`") }
    #expect(missing.sorted() == [], "CONTRIBUTING.md's folder map names no place for these commands")
  }

  /// Every option a translator's note names (`// TRANSLATORS:` in the sources, `#.` in the
  /// template) is one that some command has, so that the example it gives can be typed.
  @Test func theTranslatorsNotesNameOnlyOptionsThatExist() throws {
    var options: Set<String> = []
    for words in ToolInfo.commands {
      for argument in try ToolInfo.of(words).command.arguments ?? [] {
        options.formUnion(argument.typedNames)
      }
    }
    #expect(
      options.contains("--output-module") && options.contains("--list-voices"), "the options were not read")
    var notes = try PackageFile.text("po/announce.pot").split(separator: "\n").filter { $0.hasPrefix("#.") }
    let sources = try #require(
      FileManager.default.enumerator(
        at: PackageFile.root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil))
    for case let file as URL in sources where file.pathExtension == "swift" {
      notes += try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter {
        $0.contains("TRANSLATORS:")
      }
    }
    #expect(notes.count > 10, "the translators' notes were not read")
    for note in notes {
      for match in note.matches(of: /(?:^|\s)(--?[a-z][a-z-]*)/) where !options.contains(String(match.1)) {
        Issue.record("a translators' note names \(match.1), which no command has: \(note)")
      }
    }
  }

  /// The manual page describes a variable once: `NO_COLOR` has its item in ENVIRONMENT,
  /// and is not explained again elsewhere.
  @Test func theManPageDescribesNoColorOnce() throws {
    let page = try ManPage()
    let mentions = page.lines.filter { $0.contains("NO_COLOR") }
    #expect(mentions == [".It Ev NO_COLOR"], "man/announce.1 says NO_COLOR in \(mentions.count) places")
  }

  /// A field a JSON input line leaves out takes the command line's value, which comes from
  /// the option or its `ANNOUNCE_` variable, or else speech-dispatcher's default: the
  /// usage guide names all three.
  @Test func theUsageGuideNamesEverySourceOfALeftOutField() throws {
    let guide = try PackageFile.text("docs/usage.md").replacing(/\s+/, with: " ")
    let sentence = try #require(
      guide.firstMatch(of: /A field you leave out[^.]*\./),
      "docs/usage.md no longer says what a left-out field takes")
    let text = String(guide[sentence.range])
    for source in ["command line", "variable", "speech-dispatcher's default"] {
      #expect(text.contains(source), "docs/usage.md: \(text) does not name the \(source)")
    }
  }

  /// The shell hook's sentence is said in the language of `ANNOUNCE_LANGUAGE`, else of
  /// the locale (`SpokenLanguage`, which `hook-finished` uses): the shell hooks guide says so.
  @Test func theShellHooksGuideSaysTheSentenceFollowsTheLanguage() throws {
    let hook = try PackageFile.text("Sources/announce/ShellHooks/HookFinished.swift")
    #expect(hook.contains("SpokenLanguage(environment: environment)"))
    let guide = try PackageFile.text("docs/shell-hooks.md")
    #expect(guide.contains("`ANNOUNCE_LANGUAGE`"), "docs/shell-hooks.md does not name ANNOUNCE_LANGUAGE")
    #expect(guide.contains("locale"), "docs/shell-hooks.md does not say the sentence follows the locale")
  }

  /// The section of the README under `heading`, up to the next heading of its level.
  static func readmeSection(_ heading: String) throws -> String {
    let readme = try PackageFile.text("README.md")
    let start = try #require(readme.range(of: "\n\(heading)\n"), "README.md has no \(heading)")
    return readme[start.upperBound...].components(separatedBy: "\n## ")[0]
  }

  /// Where the README says the two commands work on a fresh clone, it says what Debian 12
  /// lacks (setup stops there without Swift 6), and installing on another distribution is
  /// told under Install, not under Upgrade.
  @Test func theReadmesInstallClaimsAreTrueWhereTheyAreMade() throws {
    let readme = try PackageFile.text("README.md")
    let claim = try #require(readme.firstMatch(of: /Both work on a fresh clone[^\n]*(\n[^\n]+)*/))
    let paragraph = readme[claim.range].replacing(/\s+/, with: " ")
    #expect(
      !paragraph.contains("Debian 12") || paragraph.contains("Swift 6"),
      "the README says the scripts work on Debian 12 without saying it needs Swift 6 first: \(paragraph)")
    let install = try Self.readmeSection("## Install")
    #expect(
      install.contains("On other distributions"), "the README's Install says nothing of other distributions")
    let upgrade = try Self.readmeSection("## Upgrade and uninstall")
    #expect(!upgrade.contains("On other distributions"), "other distributions are told under Upgrade")
  }

  /// The README's "Try it" gives the sentence the hook says for the command it names, in
  /// the words `HookMessage` makes of it: "sleep 12", not "sleep", since a command is
  /// named by its words up to the first option.
  @Test func theReadmesTryItSentenceIsTheHooks() throws {
    let readme = try PackageFile.text("README.md").replacing(/\s+/, with: " ")
    let example = try #require(
      readme.firstMatch(of: /run `([^`]+)`\. When it ends you hear "([^"]+)"/), "the README has no Try it")
    let command = String(example.1)
    let seconds = try #require(command.firstMatch(of: /[0-9]+/).flatMap { Double(command[$0.range]) })
    let said = HookMessage.sentence(
      for: FinishedCommand(commandLine: command, status: 0, seconds: seconds), settings: HookSettings())
    #expect(said == String(example.2), "the README says the hook says \(example.2)")
  }
}
