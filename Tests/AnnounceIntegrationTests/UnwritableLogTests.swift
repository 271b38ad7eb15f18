import Foundation
import Testing

extension SpeakingTests.Detached {
  /// A state directory on a read-only file system: root writes through permissions, so
  /// only a read-only mount stops it, and only root can mount one here.
  @Test(.enabled(if: geteuid() == 0))
  func aLogOnAReadOnlyFileSystemIsNamedOnceAndTheDeliveryGoesOn() throws {
    let state = detachState()
    try FileManager.default.createDirectory(atPath: state.directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: state.directory) }
    #expect(mount("tmpfs", state.directory, "tmpfs", UInt(MS_RDONLY), "size=64k") == 0)
    defer { umount(state.directory) }
    let recording = try stack.record()
    let result = try Command.run(
      Command.announce, ["--detach", "The log is read-only"], environment: state.environment)
    Thread.sleep(forTimeInterval: 4)
    let speech = recording.stop()
    #expect(result.status == 0)
    #expect(
      result.standardError
        == "The outcome log \(state.log) cannot be written (Read-only file system), so outcomes are not "
        + "logged; make \(state.directory)/announce writable, or set XDG_STATE_HOME to a directory that is.\n"
    )
    #expect(speech > 0.5, "\(speech) s of speech")
  }
}
