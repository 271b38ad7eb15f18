import CSdBus
import Glibc
import Synchronization

/// A desktop notification server on the session bus, reached through sd-bus.
///
/// sd-bus connections are not thread-safe, so one thread of our own owns the connection:
/// it polls the bus's file descriptor and an eventfd that wakes it for our requests, calls
/// the server, and turns the server's signals into ``inputs``. Calls wait for their answer
/// on that thread (at most ``callTimeout``; dunst answers `Notify` in about 7 ms,
/// NOTIFY-NOTES.md), and the signals that arrive meanwhile are queued by sd-bus and handed
/// on afterwards, so a notification's id always comes before the signals about it.
///
/// The signals are matched on this connection, before the first `Notify`: dunst 1.9 sends
/// `NotificationClosed` to the connection that posted the notification alone.
package final class SdBusNotificationServer: NotificationServer {
  package let address: String
  package let inputs: AsyncStream<NotificationServerInput>
  private let output: AsyncStream<NotificationServerInput>.Continuation
  private let requests = Mutex<[Request]>([])
  private let wake: WakePipe
  private let details: NotificationServerInformation

  /// How long a call to the server may take before it counts as refused.
  package static let callTimeout: Duration = .seconds(2)

  private enum Request {
    case post(NotificationRequest, token: UInt64)
    case close(UInt32)
    case shutdown(CheckedContinuation<Void, Never>)
  }

  /// The session bus of `environment`: `DBUS_SESSION_BUS_ADDRESS`, or else systemd's user
  /// bus at `$XDG_RUNTIME_DIR/bus` when that socket exists; `nil` for neither.
  package static func sessionBusAddress(environment: [String: String]) -> String? {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
    guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
    let path = runtime + "/bus"
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
    return "unix:path=" + path
  }

  /// Connects to the session bus of `environment`, and asks the notification server
  /// there who it is; fails when there is no bus or no server on it.
  package static func connect(
    environment: [String: String]
  ) async -> Result<SdBusNotificationServer, NotificationUnavailable> {
    guard let library = Libsystemd.shared else {
      return .failure(.libraryMissing(fileName: Libsystemd.fileName))
    }
    guard let address = sessionBusAddress(environment: environment) else { return .failure(.noSessionBus) }
    guard let wake = WakePipe() else { return .failure(.noThread) }
    return await withCheckedContinuation {
      (opened: CheckedContinuation<Result<SdBusNotificationServer, NotificationUnavailable>, Never>) in
      let started = SystemThread.start {
        let bus = BusConnection(library: library)
        switch bus.open(address: address) {
        case .failure(let unavailable):
          bus.close()
          wake.close()
          opened.resume(returning: .failure(unavailable))
        case .success(let details):
          let server = SdBusNotificationServer(address: address, wake: wake, details: details)
          bus.deliver(to: server.output)
          opened.resume(returning: .success(server))
          server.serve(bus)
        }
      }
      if !started {
        wake.close()
        opened.resume(returning: .failure(.noThread))
      }
    }
  }

  private init(address: String, wake: WakePipe, details: NotificationServerInformation) {
    self.address = address
    self.wake = wake
    self.details = details
    (inputs, output) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
  }

  package func post(_ notification: NotificationRequest, token: UInt64) {
    send(.post(notification, token: token))
  }

  package func close(_ id: UInt32) {
    send(.close(id))
  }

  package func information() async -> NotificationServerInformation? {
    details
  }

  package func shutdown() async {
    await withCheckedContinuation { send(.shutdown($0)) }
  }

  private func send(_ request: Request) {
    requests.withLock { $0.append(request) }
    wake.ring()
  }

  /// The bus thread's loop: our requests, the bus's messages, then a poll for either.
  private func serve(_ bus: BusConnection) {
    while true {
      wake.drain()
      for request in requests.withLock({ pending in
        defer { pending.removeAll() }
        return pending
      }) {
        switch request {
        case .post(let notification, let token):
          output.yield(bus.post(notification, token: token))
        case .close(let id):
          bus.closeNotification(id)
        case .shutdown(let done):
          bus.close()
          output.finish()
          wake.close()
          done.resume()
          return
        }
      }
      if !bus.processAll() { output.yield(.lost) }
      bus.wait(alsoOn: wake.readEnd)
    }
  }
}

/// The sd-bus connection itself, used on the bus thread alone.
private final class BusConnection {
  private let library: Libsystemd
  private var bus: Libsystemd.Bus?
  /// Where the signal handlers send what they read; retained while the bus lives.
  private var signals: Unmanaged<SignalTarget>?
  private var lost = false

  private static let service = "org.freedesktop.Notifications"
  private static let path = "/org/freedesktop/Notifications"
  private static let interface = "org.freedesktop.Notifications"
  private static let timeout = UInt64(SdBusNotificationServer.callTimeout.components.seconds) * 1_000_000

  init(library: Libsystemd) {
    self.library = library
  }

  /// Connects, matches the server's signals, and asks the server who it is.
  func open(address: String) -> Result<NotificationServerInformation, NotificationUnavailable> {
    var made: OpaquePointer?
    guard library.new(&made) >= 0, let bus = made else { return .failure(.noThread) }
    self.bus = bus
    var result = address.withCString { library.setAddress(bus, $0) }
    if result >= 0 { result = library.setBusClient(bus, 1) }
    if result >= 0 { result = library.start(bus) }
    guard result >= 0 else {
      return .failure(.busUnreachable(address: address, reason: String(cString: strerror(-result))))
    }
    let target = Unmanaged.passRetained(SignalTarget())
    signals = target
    // Sent without waiting for their replies: the bus daemon handles one connection's
    // messages in order, so the matches are in place before the server gets our first
    // call, and three round trips fewer made announce's exec -> Notify faster
    // (docs/notify.md, Measured).
    for member in ["NotificationClosed", "ActionInvoked"] {
      _ = library.matchSignal(
        bus, nil, Self.service, Self.path, Self.interface, member, SignalTarget.handle, nil, target.toOpaque()
      )
    }
    _ = library.matchSignal(
      bus, nil, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged",
      SignalTarget.handle, nil, target.toOpaque())
    switch call("GetServerInformation", build: { _ in true }) {
    case .failure(let failure):
      return .failure(.noServer(address: address, reason: failure.reason))
    case .success(let reply):
      defer { _ = library.messageUnref(reply) }
      let name = readString(reply) ?? ""
      let vendor = readString(reply) ?? ""
      let version = readString(reply) ?? ""
      let specification = readString(reply) ?? ""
      return .success(
        NotificationServerInformation(
          name: name, vendor: vendor, version: version, specificationVersion: specification,
          capabilities: capabilities()))
    }
  }

  /// Where the signals go from now on.
  func deliver(to output: AsyncStream<NotificationServerInput>.Continuation) {
    signals?.takeUnretainedValue().output = output
  }

  func post(_ notification: NotificationRequest, token: UInt64) -> NotificationServerInput {
    let reply = call("Notify") { message in
      let library = self.library
      var replaces = notification.replaces
      var expiry: Int32 =
        notification.expiry.map {
          Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000)
        } ?? -1
      var urgency = notification.urgency.rawValue
      var quiet: Int32 = 1
      guard
        self.append("announce", to: message),
        library.appendBasic(message, CChar(UInt8(ascii: "u")), &replaces) >= 0,
        self.append(notification.icon, to: message),
        self.append(notification.summary, to: message),
        self.append(notification.body, to: message),
        library.openContainer(message, CChar(UInt8(ascii: "a")), "s") >= 0
      else { return false }
      for action in notification.actions {
        guard self.append(action.key, to: message), self.append(action.label, to: message) else {
          return false
        }
      }
      guard library.closeContainer(message) >= 0,
        library.openContainer(message, CChar(UInt8(ascii: "a")), "{sv}") >= 0,
        self.appendHint("urgency", type: "y", value: &urgency, to: message)
      else { return false }
      if notification.suppressSound {
        guard self.appendHint("suppress-sound", type: "b", value: &quiet, to: message) else { return false }
      }
      return library.closeContainer(message) >= 0
        && library.appendBasic(message, CChar(UInt8(ascii: "i")), &expiry) >= 0
    }
    switch reply {
    case .failure(let failure):
      return .refused(token, reason: failure.reason)
    case .success(let message):
      defer { _ = library.messageUnref(message) }
      var id: UInt32 = 0
      guard library.readBasic(message, CChar(UInt8(ascii: "u")), &id) >= 0 else {
        return .refused(token, reason: "the server's answer held no id")
      }
      return .posted(token, id: id)
    }
  }

  func closeNotification(_ id: UInt32) {
    var id = id
    if case .success(let reply) = call(
      "CloseNotification",
      build: { message in
        self.library.appendBasic(message, CChar(UInt8(ascii: "u")), &id) >= 0
      })
    {
      _ = library.messageUnref(reply)
    }
  }

  /// Handles every message that has arrived; `false` once, when the connection broke.
  func processAll() -> Bool {
    guard let bus, !lost else { return true }
    while true {
      let result = library.process(bus, nil)
      if result == 0 { return true }
      if result < 0 {
        lost = true
        return false
      }
    }
  }

  /// Waits until the bus or `wake` has something, or sd-bus's own timeout passes.
  func wait(alsoOn wake: Int32) {
    var descriptors = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
    var timeout: Int32 = -1
    if let bus, !lost {
      let events = library.getEvents(bus)
      descriptors.append(pollfd(fd: library.getFd(bus), events: Int16(max(events, 0)), revents: 0))
      var until: UInt64 = 0
      if library.getTimeout(bus, &until) > 0, until != UInt64.max {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        timeout = until > nowMicroseconds ? Int32(clamping: (until - nowMicroseconds + 999) / 1000) : 0
      }
    }
    _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
  }

  func close() {
    if let bus { _ = library.flushCloseUnref(bus) }
    bus = nil
    signals?.takeUnretainedValue().output?.finish()
    signals?.release()
    signals = nil
  }

  private func capabilities() -> [String] {
    guard case .success(let reply) = call("GetCapabilities", build: { _ in true }) else { return [] }
    defer { _ = library.messageUnref(reply) }
    guard library.enterContainer(reply, CChar(UInt8(ascii: "a")), "s") > 0 else { return [] }
    var names: [String] = []
    while let name = readString(reply) { names.append(name) }
    _ = library.exitContainer(reply)
    return names
  }

  /// Calls `member` of the server with the arguments `build` appends; the reply, which
  /// the caller unrefs, or the error's words.
  private func call(
    _ member: String, build: (Libsystemd.Message) -> Bool
  ) -> Result<Libsystemd.Message, CallFailure> {
    guard let bus, !lost else { return .failure(CallFailure("the session bus connection broke")) }
    var made: OpaquePointer?
    let created = library.newMethodCall(bus, &made, Self.service, Self.path, Self.interface, member)
    guard created >= 0, let message = made else { return .failure(CallFailure(errno: -created)) }
    defer { _ = library.messageUnref(message) }
    guard build(message) else { return .failure(CallFailure("the notification could not be encoded")) }
    var error = sd_bus_error()
    defer { library.errorFree(&error) }
    var reply: OpaquePointer?
    let result = library.call(bus, message, Self.timeout, &error, &reply)
    guard result >= 0, let reply else {
      if let words = error.message { return .failure(CallFailure(String(cString: words))) }
      if let name = error.name { return .failure(CallFailure(String(cString: name))) }
      return .failure(CallFailure(errno: -result))
    }
    return .success(reply)
  }

  /// Appends `text` as a D-Bus string: valid UTF-8 (as every Swift string is) without NUL,
  /// which D-Bus strings cannot hold.
  private func append(_ text: String, to message: Libsystemd.Message) -> Bool {
    let clean = text.contains("\u{0}") ? String(text.map { $0 == "\u{0}" ? " " : $0 }) : text
    return clean.withCString { library.appendBasic(message, CChar(UInt8(ascii: "s")), $0) } >= 0
  }

  private func appendHint<Value>(
    _ key: String, type: String, value: inout Value, to message: Libsystemd.Message
  ) -> Bool {
    library.openContainer(message, CChar(UInt8(ascii: "e")), "sv") >= 0
      && append(key, to: message)
      && library.openContainer(message, CChar(UInt8(ascii: "v")), type) >= 0
      && withUnsafePointer(to: &value) { library.appendBasic(message, CChar(type.utf8.first ?? 0), $0) } >= 0
      && library.closeContainer(message) >= 0
      && library.closeContainer(message) >= 0
  }

  private func readString(_ message: Libsystemd.Message) -> String? {
    var text: UnsafePointer<CChar>?
    guard library.readBasic(message, CChar(UInt8(ascii: "s")), &text) > 0, let text else { return nil }
    return String(cString: text)
  }
}

/// Reads the server's signals on the bus thread and hands them on.
private final class SignalTarget {
  var output: AsyncStream<NotificationServerInput>.Continuation?

  static let handle: Libsystemd.Handler = { message, userdata, _ in
    guard let message, let userdata, let library = Libsystemd.shared else { return 0 }
    let target = Unmanaged<SignalTarget>.fromOpaque(userdata).takeUnretainedValue()
    if let input = target.read(message, library: library) { target.output?.yield(input) }
    return 0
  }

  /// The input a signal means, told apart by the types of its arguments: (u, u) is
  /// `NotificationClosed`, (u, s) `ActionInvoked`, (s, s, s) `NameOwnerChanged`.
  private func read(_ message: OpaquePointer, library: Libsystemd) -> NotificationServerInput? {
    let u = CChar(UInt8(ascii: "u"))
    let s = CChar(UInt8(ascii: "s"))
    var id: UInt32 = 0
    if library.readBasic(message, u, &id) > 0 {
      var reason: UInt32 = 0
      if library.readBasic(message, u, &reason) > 0 {
        return .closed(id: id, reason: NotificationCloseReason(code: reason))
      }
      var key: UnsafePointer<CChar>?
      if library.readBasic(message, s, &key) > 0, let key {
        return .actionInvoked(id: id, key: String(cString: key))
      }
      return nil
    }
    var name: UnsafePointer<CChar>?
    var old: UnsafePointer<CChar>?
    var new: UnsafePointer<CChar>?
    guard library.readBasic(message, s, &name) > 0, let name,
      String(cString: name) == "org.freedesktop.Notifications",
      library.readBasic(message, s, &old) > 0, library.readBasic(message, s, &new) > 0, let new,
      new.pointee == 0
    else { return nil }
    return .lost
  }
}

/// Why a call to the server failed, in the bus's or the system's words.
private struct CallFailure: Error {
  let reason: String

  init(_ reason: String) {
    self.reason = reason
  }

  init(errno: Int32) {
    reason = String(cString: strerror(errno))
  }
}

/// A non-blocking pipe that wakes the bus thread's poll when a request is waiting.
private final class WakePipe: Sendable {
  let readEnd: Int32
  private let writeEnd: Int32

  init?() {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFL, O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  func ring() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  func drain() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &bytes, bytes.count) > 0 {}
  }

  func close() {
    _ = Glibc.close(readEnd)
    _ = Glibc.close(writeEnd)
  }
}
