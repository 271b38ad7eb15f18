import Foundation
import Glibc
import Testing

@testable import announce

/// What reaches the terminal or the speech from text that others control: log fields,
/// process names and the comments of command lines.
@Suite struct ShownTextTests {
  /// A forged `reason` reached the terminal raw, escape sequences and line breaks included.
  @Test func aForgedReasonIsShownOnOneLineWithoutEscapeSequences() throws {
    let line =
      "{\"event\":\"gave-up\",\"text\":\"Build failed.\",\"reason\":\"x\\u001b[2J\\nrm -rf\",\"key\":\"k\",\"at\":\"2026-11-22T10:15:03.000Z\"}"
    let record = try #require(HistoryRecord.parse(line))
    let shown = HistoryWords.line(for: record, now: try #require(record.seconds) + 60)
    #expect(shown == "1 minute ago, not heard (x [2J rm -rf): Build failed.", "\(shown)")
    #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .control })
  }

  /// A comment was spoken as part of the command's name.
  @Test(arguments: [
    ("sleep 1.1 # comment", "sleep 1.1"), ("make test #wait\nls", "make test"),
    ("echo a#b", "echo a#b"), ("echo '# not a comment'", "echo # not a comment"), ("# all of it", ""),
  ])
  func aCommentIsNoPartOfTheName(line: String, expected: String) {
    #expect(CommandWords(line).shortName == expected)
  }

  /// `--when-done --verbose` printed `/proc/PID/comm` raw.
  @Test func aProcessNameWithControlCharactersIsShownWithSpaces() throws {
    let directory = NSTemporaryDirectory() + "announce-comm-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let program = directory + "/a\u{1b}[31m\nb"
    try FileManager.default.createSymbolicLink(atPath: program, withDestinationPath: "/bin/sleep")
    let child = Process()
    child.executableURL = URL(fileURLWithPath: program)
    child.arguments = ["30"]
    try child.run()
    defer {
      kill(child.processIdentifier, SIGKILL)
      child.waitUntilExit()
    }
    let watched = try WatchedProcess.open(child.processIdentifier)
    let name = try #require(watched.name)
    #expect(name == "a [31m b", "\(name.debugDescription)")
  }

  /// A zombie's run time was the time since it ended; it is not known.
  @Test func aZombiesRunTimeIsNotKnown() throws {
    var pid: pid_t = 0
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
    defer { arguments.forEach { free($0) } }
    #expect(posix_spawn(&pid, "/bin/true", nil, nil, arguments, environ) == 0)
    defer { waitpid(pid, nil, 0) }
    // Not reaped, so it stays a zombie once it has ended.
    var state = ""
    for _ in 0..<500 {
      state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      if state.contains(") Z ") { break }
      usleep(10_000)
    }
    #expect(state.contains(") Z "), "\(state)")
    let watched = try WatchedProcess.open(pid)
    #expect(watched.started == nil)
    #expect(watched.sentence(endedAt: WatchedProcess.now()) == "Process \(pid), true, finished.")
  }
}
