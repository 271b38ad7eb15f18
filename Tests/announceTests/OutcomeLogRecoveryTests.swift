import AnnouncerCore
import Foundation
import Testing

@testable import announce
import AnnouncerTesting

/// The folder that every path in these tests starts from: nothing makes it, so the system
/// answers the same there on every machine (CONTRIBUTING.md, "Tests name only their own paths").
private let testRoot = UnusedPath.folder()

/// The outcome log after a crash cut its last line, and a log that cannot be written.
@Suite struct OutcomeLogRecoveryTests {
  func withLog(_ body: (OutcomeLog, String) throws -> Void) throws {
    try withLogInFreshDirectory(body)
  }

  func lines(_ path: String) throws -> [Substring] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
  }

  @Test func aRecordAfterACutLastLineStartsOnALineOfItsOwn() throws {
    try withLog { log, _ in
      let fragment = "{\"event\":\"spoken\",\"id\":1,\"text\":\"Sav"
      try fragment.write(toFile: log.path, atomically: false, encoding: .utf8)
      log.record(error: "speech-dispatcher went away.", status: 69)
      let written = try lines(log.path)
      #expect(written.count == 3 && written.last == "", "\(written)")
      #expect(written.first.map(String.init) == fragment)
      let record = try #require(
        try? JSONSerialization.jsonObject(with: Data(written[1].utf8)) as? [String: Any], "\(written)")
      #expect(record["text"] as? String == "speech-dispatcher went away.")
    }
  }

  @Test func aWholeLastLineGetsNoBlankLineAfterIt() throws {
    try withLog { log, _ in
      log.record(error: "first", status: 69)
      log.record(error: "second", status: 69)
      let written = try lines(log.path)
      #expect(written.count == 3 && !written.dropLast().contains(""), "\(written)")
    }
  }

  @Test func anEmptyLogGetsNoBlankLineBeforeTheFirstRecord() throws {
    try withLog { log, _ in
      #expect(FileManager.default.createFile(atPath: log.path, contents: Data()))
      log.record(error: "first", status: 69)
      let written = try lines(log.path)
      #expect(written.first?.hasPrefix("{") == true, "\(written)")
    }
  }

  /// Root writes through a directory's permissions, so this variant only means something
  /// for other users; the read-only mount below is the one that runs as root.
  @Test(.enabled(if: geteuid() != 0))
  func aDirectoryWithoutWritePermissionIsNamedInOneSentence() throws {
    try withLog { log, directory in
      #expect(chmod(directory + "/announce", 0o500) == 0)
      defer { chmod(directory + "/announce", 0o700) }
      let problem = try #require(log.problem())
      #expect(problem.contains(log.path) && problem.contains("Permission denied"), "\(problem)")
      #expect(!problem.contains("\n"))
    }
  }

  @Test(.enabled(if: geteuid() == 0))
  func aLogOnAReadOnlyFileSystemIsNamedInOneSentenceAndNothingIsWritten() throws {
    let mountPoint = NSTemporaryDirectory() + "announce-log-ro-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: mountPoint) }
    #expect(mount("tmpfs", mountPoint, "tmpfs", 0, "size=64k,mode=0700") == 0)
    defer { umount(mountPoint) }
    try FileManager.default.createDirectory(
      atPath: mountPoint + "/announce", withIntermediateDirectories: true)
    #expect(mount("tmpfs", mountPoint, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), "size=64k,mode=0700") == 0)
    let log = OutcomeLog(path: mountPoint + "/announce/log.jsonl")
    let problem = try #require(log.problem())
    #expect(
      problem
        == "The outcome log \(log.path) cannot be written (Read-only file system), so outcomes are not "
        + "logged; make \(mountPoint)/announce writable, or set XDG_STATE_HOME to a directory that is.")
    // Writing still fails quietly: the run goes on as it was.
    log.record(error: "x", status: 69)
    #expect(!FileManager.default.fileExists(atPath: log.path))
  }

  @Test(.enabled(if: geteuid() == 0))
  func aMissingDirectoryOnAReadOnlyFileSystemIsNamedToo() throws {
    let mountPoint = NSTemporaryDirectory() + "announce-log-ro-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: mountPoint) }
    #expect(mount("tmpfs", mountPoint, "tmpfs", UInt(MS_RDONLY), "size=64k") == 0)
    defer { umount(mountPoint) }
    let problem = try #require(OutcomeLog(path: mountPoint + "/state/announce/log.jsonl").problem())
    #expect(problem.contains("(Read-only file system)"), "\(problem)")
  }

  @Test func aLogThatCanBeWrittenHasNoProblemAndCheckingLeavesNoLog() throws {
    try withLog { log, _ in
      #expect(log.problem() == nil)
      #expect(!FileManager.default.fileExists(atPath: log.path))
    }
  }
}

/// Every message about the log names where it really is.
@Suite struct OutcomeLogPathMessageTests {
  @Test(arguments: [["--detach", "--json", "x"], ["--detach", "--verbose", "x"]])
  func theUsageErrorOfDetachWithOutputNamesTheLogUnderXDGStateHome(arguments: [String]) {
    let environment = ["XDG_STATE_HOME": "\(testRoot)/srv/state", "HOME": "\(testRoot)/home/someone"]
    do {
      _ = try Announce.parse(arguments).request(environment: environment)
      Issue.record("\(arguments) was accepted")
    } catch {
      let message = Announce.message(for: error)
      #expect(message.contains("\(testRoot)/srv/state/announce/log.jsonl"), "\(message)")
      #expect(!message.contains("~/.local/state"), "\(message)")
    }
  }
}
