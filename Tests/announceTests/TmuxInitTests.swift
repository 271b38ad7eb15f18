import Foundation
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// `announce init tmux` and `announce tmux-alert`: the printed configuration, the
/// sentence, and the rate limit, with times given rather than waited for.
@Suite struct TmuxInitTests {
  static let sentences: [(TmuxAlertKind, Int, String, String?, String)] = [
    (.bell, 3, "build", nil, "Bell in window 3, build."),
    (.activity, 0, "logs", nil, "Activity in window 0, logs."),
    (.silence, 12, "make test", nil, "Silence in window 12, make test."),
    (.bell, 1, "", nil, "Bell in window 1."),
    (.bell, 1, "  \t ", nil, "Bell in window 1."),
    (.bell, 2, "build", "work", "Bell in window 2 of session work, build."),
    (.bell, 2, "build", "", "Bell in window 2, build."),
    (.bell, 4, "Done!", nil, "Bell in window 4, Done!"),
    (.bell, 4, "a\nb;\trm -rf ~", nil, "Bell in window 4, a b; rm -rf ~."),
  ]

  @Test(arguments: sentences)
  func theSentenceSaysTheKindTheNumberAndTheName(
    kind: TmuxAlertKind, index: Int, name: String, session: String?, expected: String
  ) {
    #expect(TmuxAlertSentence.text(kind: kind, index: index, windowName: name, session: session) == expected)
  }

  @Test func aLongNameIsCutAtASpaceWithinSixtyCharacters() {
    let name = String(repeating: "word ", count: 30)
    let spoken = TmuxAlertSentence.spoken(name)
    #expect(spoken.count <= TmuxAlertSentence.maxNameCharacters)
    #expect(spoken.hasSuffix("word") && spoken.hasPrefix("word word"))
    let unbroken = String(repeating: "x", count: 100)
    #expect(TmuxAlertSentence.spoken(unbroken).count == TmuxAlertSentence.maxNameCharacters)
  }

  @Test func theHiddenCommandTakesANameThatLooksLikeAnOptionOrIsEmpty() throws {
    let arguments = ["bell", "--server", "123", "--window", "@4", "--index", "2", "--interval", ""]
    let dashed = try TmuxAlert.parse(arguments + ["--session", "main", "--sessions", "1", "--", "-n"])
    #expect(dashed.windowName == "-n" && dashed.kind == .bell && dashed.index == 2)
    let empty = try TmuxAlert.parse(arguments + ["--", ""])
    #expect(empty.windowName == "" && empty.sessions == 1)
    #expect(TmuxAlert.keyPart("@4 x/y") == "@4xy")
  }

  @Test func initTmuxIsAChoiceOfInit() throws {
    let command = try ShellInit.parse(["tmux"])
    #expect(command.shell == .tmux)
  }

  // MARK: The configuration

  func configuration(announce: String = "/usr/bin/announce") -> String {
    TmuxHooks.configuration(announce: announce)
  }

  @Test func theConfigurationTurnsOnTheMonitorsAndSetsOneHookOfEachKind() {
    let lines = configuration().split(separator: "\n").map(String.init)
    for line in [
      "set -wg monitor-bell on", "set -wg monitor-activity on", "set -wg monitor-silence 30",
      "set -g @announce-interval 10",
    ] {
      #expect(lines.contains(line), "\(line) is missing")
    }
    for kind in TmuxAlertKind.allCases {
      #expect(lines.filter { $0 == "set-hook -g 'alert-\(kind.rawValue)[47]' {" }.count == 1)
      #expect(lines.contains { $0.contains("tmux-alert \(kind.rawValue) --server #{pid}") })
    }
    // Every command line is a comment or tmux configuration; nothing runs in the shell that
    // prints it.
    #expect(lines.allSatisfy { !$0.hasPrefix("tmux ") })
    #expect(lines.contains { $0.hasPrefix("# Turn it off: tmux set-hook -gu 'alert-bell[47]'") })
    #expect(
      lines.contains { $0.hasPrefix("# Turn it off:") && $0.hasSuffix("set-hook -gu 'window-linked[47]'") })
  }

  @Test func aWindowMadeInTheBackgroundHasItsTimeNotedSoThatItsMakingIsNotSpoken() {
    let lines = configuration().split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "set-hook -g 'window-linked[47]' { set -Fw @announce-created '#{?window_active_clients,0,#{window_activity}}' }"
      ))
    let notNew = "#{e|>=:#{e|-:#{window_activity},#{?@announce-created,#{@announce-created},0}},2}"
    #expect(lines.filter { $0.contains("if-shell -F") && $0.contains(notNew) }.count == 2)
  }

  @Test func everyHookLooksAtWhetherSomeoneViewsTheWindowFirst() {
    let conditions = configuration().split(separator: "\n").filter { $0.contains("if-shell -F") }
    #expect(conditions.count == 3)
    #expect(
      conditions.allSatisfy {
        $0.contains("#{window_active_clients}") || $0.contains("#{?window_active_clients,0,")
      })
  }

  @Test func userTextReachesTheShellInSingleQuotes() {
    let text = configuration()
    for name in ["window_name", "session_name", "@announce-interval"] {
      #expect(text.contains("'#{s/'/'\\\"'\\\"'/:\(name)}'"), "\(name)")
    }
    #expect(!text.contains("#{q:"))
  }

  @Test func aPathWithQuotesDollarsAndHashesIsEscapedForTmuxTheFormatAndTheShell() {
    let text = configuration(announce: "\(testRoot)/opt/it's \"odd\" $HOME #{pid}/announce")
    #expect(
      text.contains(
        #"run-shell -b "'\#(testRoot)/opt/it'\\''s \"odd\" \$HOME ##{pid}/announce' tmux-alert bell"#),
      "\(text)")
  }

  // MARK: The rate limit

  func temporaryLimit() throws -> (AlertRateLimit, String) {
    let directory = NSTemporaryDirectory() + "announce-tmux-limit-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return (AlertRateLimit(path: directory + "/state/tmux-alerts"), directory)
  }

  @Test func aKeyIsHeldBackUntilItsIntervalHasPassed() throws {
    let (limit, directory) = try temporaryLimit()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(limit.admits("1/@1/bell", now: 1000, interval: 10))
    #expect(!limit.admits("1/@1/bell", now: 1009.9, interval: 10))
    // Another kind, window or server has its own interval.
    #expect(limit.admits("1/@1/activity", now: 1009.9, interval: 10))
    #expect(limit.admits("1/@2/bell", now: 1009.9, interval: 10))
    #expect(limit.admits("2/@1/bell", now: 1009.9, interval: 10))
    #expect(limit.admits("1/@1/bell", now: 1010, interval: 10))
    #expect(!limit.admits("1/@1/bell", now: 1011, interval: 10))
  }

  @Test func aHeldBackAlertDoesNotExtendTheIntervalAndZeroHoldsNothing() throws {
    let (limit, directory) = try temporaryLimit()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(limit.admits("k", now: 0, interval: 10))
    #expect(!limit.admits("k", now: 9, interval: 10))
    #expect(limit.admits("k", now: 10, interval: 10))
    #expect(limit.admits("z", now: 10, interval: 0))
    #expect(limit.admits("z", now: 10, interval: 0))
  }

  /// tmux runs the hooks of a window linked into two sessions at once: the second must see
  /// the first's line as current, so each reads the time only once it holds the lock.
  @Test func theClockIsReadWhileTheLockIsHeld() throws {
    let (limit, directory) = try temporaryLimit()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(limit.admits("k", now: 0, interval: 10))
    var lockedWhenRead: Bool?
    let admitted = limit.admits("k", interval: 10) {
      // Another open file of the same path cannot take the lock while admits holds it.
      let other = open(limit.path, O_RDWR | O_CLOEXEC)
      defer { close(other) }
      lockedWhenRead = flock(other, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
      return 5
    }
    #expect(lockedWhenRead == true)
    #expect(!admitted)
  }

  @Test func expiredKeysAreDroppedAndAClockThatWentBackHoldsNothing() throws {
    let (limit, directory) = try temporaryLimit()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for window in 0..<50 { #expect(limit.admits("1/@\(window)/bell", now: 0, interval: 10)) }
    #expect(limit.admits("1/@99/bell", now: 20, interval: 10))
    let text = try String(contentsOfFile: limit.path, encoding: .utf8)
    #expect(text.split(separator: "\n").count == 1, "\(text)")
    // An expiry two days ahead was written before the clock went back.
    #expect(limit.admits("1/@7/bell", now: 1e6, interval: 10))
    #expect(limit.admits("1/@7/bell", now: 1e6 - 2 * 86_400, interval: 10))
  }

  @Test func aStateFileThatIsASymbolicLinkIsNeitherFollowedNorAnObstacle() throws {
    let (limit, directory) = try temporaryLimit()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let target = directory + "/target"
    _ = FileManager.default.createFile(atPath: target, contents: Data("precious\n".utf8))
    try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: limit.path, withDestinationPath: target)
    #expect(limit.admits("k", now: 0, interval: 10))
    #expect(limit.admits("k", now: 1, interval: 10))
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
  }

  @Test func theStateFileLivesBesideTheOutcomeLog() {
    let limit = AlertRateLimit.forUser(environment: [
      "XDG_STATE_HOME": "\(testRoot)/s", "HOME": "\(testRoot)/h",
    ])
    #expect(limit?.path == "\(testRoot)/s/announce/tmux-alerts")
  }

  /// A relative HOME would put the file wherever tmux runs the hook, as plain announce
  /// refuses to put its log there (issue #39 item 6): there is no file, and every alert
  /// is let through.
  @Test func aRelativeHomeGivesNoStateFile() {
    #expect(AlertRateLimit.forUser(environment: ["HOME": "relative/home"]) == nil)
    #expect(
      AlertRateLimit.forUser(environment: ["HOME": "\(testRoot)/h"])?.path
        == "\(testRoot)/h/.local/state/announce/tmux-alerts")
  }
}
