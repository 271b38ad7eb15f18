import AnnouncerCore
import AnnouncerTesting
import Foundation
import Testing

/// Where the notification channel looks for the session bus.
@Suite struct SessionBusAddressTests {
  @Test func theVariableWinsOverTheRuntimeFolder() {
    let variable = "unix:path=" + UnusedPath.file("bus")
    let address = SdBusNotificationServer.sessionBusAddress(environment: [
      "DBUS_SESSION_BUS_ADDRESS": variable, "XDG_RUNTIME_DIR": UnusedPath.folder(),
    ])
    #expect(address == variable)
  }

  @Test func withoutEitherThereIsNoBusAsInAnSSHSession() {
    #expect(SdBusNotificationServer.sessionBusAddress(environment: [:]) == nil)
    #expect(SdBusNotificationServer.sessionBusAddress(environment: ["DBUS_SESSION_BUS_ADDRESS": ""]) == nil)
    #expect(
      SdBusNotificationServer.sessionBusAddress(environment: ["XDG_RUNTIME_DIR": UnusedPath.folder()]) == nil)
  }

  @Test func systemdsUserBusIsUsedWhenItsSocketExists() throws {
    let folder = try SocketDirectory("bus")
    let path = folder.path + "/bus"
    let socket = try boundSocket(at: path)
    defer { close(socket) }
    #expect(
      SdBusNotificationServer.sessionBusAddress(environment: ["XDG_RUNTIME_DIR": folder.path])
        == "unix:path=" + path)
  }

  @Test func aPlainFileNamedBusIsNoBus() throws {
    let folder = try SocketDirectory("bus")
    #expect(FileManager.default.createFile(atPath: folder.path + "/bus", contents: Data()))
    #expect(SdBusNotificationServer.sessionBusAddress(environment: ["XDG_RUNTIME_DIR": folder.path]) == nil)
  }
}

/// A unix socket bound at `path`, as a bus daemon's is.
private func boundSocket(at path: String) throws -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    raw.copyBytes(from: path.utf8)
    raw[path.utf8.count] = 0
  }
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard fd >= 0, bound == 0 else { throw POSIXError(.EIO) }
  return fd
}
