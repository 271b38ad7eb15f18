import CSpeechd
import Dispatch
import FoundationEssentials
import Glibc

/// libspeechd's connections, opened and closed on the one queue of this process.
///
/// Several libspeechd calls (`spd_*_uid`, `spd_char`, `spd_set_priority` and others) keep
/// their replies in static buffers shared by all connections, so every call into
/// libspeechd, from every client in the process, runs on ``queue``.
enum Libspeechd {
  /// The one queue on which this process calls into libspeechd.
  static let queue = DispatchQueue(label: "announce.libspeechd")

  /// Opens a threaded connection to `address` and returns it with the client id the
  /// daemon gave it; on ``queue``.
  ///
  /// libspeechd starts the daemon only for the user's default address.
  static func open(
    _ address: SpeechdAddress, appName: String
  ) throws(SpeechdConnectError) -> (UnsafeMutablePointer<SPDConnection>, clientID: Int) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard let cAddress = address.makeCAddress() else {
      throw .unreachable(address, detail: "out of memory")
    }
    defer { SPDConnectionAddress__free(cAddress) }
    var error: UnsafeMutablePointer<CChar>?
    let autospawn: Int32 = address.isUserDefault ? 1 : 0
    guard
      let connection = spd_open2(
        appName, "main", nil, SPD_MODE_THREADED, cAddress, autospawn, &error)
    else {
      let detail = error.map { String(cString: $0) } ?? "unknown error"
      free(error)
      throw .unreachable(address, detail: detail)
    }
    let clientID = Int(spd_get_client_id(connection))
    guard clientID > 0 else {
      spd_close(connection)
      throw .unreachable(address, detail: "it did not answer")
    }
    return (connection, clientID)
  }
}

/// A connection on its way to `spd_close`, which must run on ``Libspeechd/queue``.
struct ConnectionToClose: @unchecked Sendable {
  let connection: UnsafeMutablePointer<SPDConnection>

  init(_ connection: UnsafeMutablePointer<SPDConnection>) { self.connection = connection }

  func close() {
    dispatchPrecondition(condition: .onQueue(Libspeechd.queue))
    spd_close(connection)
  }
}
