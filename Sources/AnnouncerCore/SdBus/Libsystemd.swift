import CSdBus
import Glibc

/// The few sd-bus functions of libsystemd that the notification channel uses, found with
/// `dlopen` and `dlsym` the first time desktop notifications are asked for.
///
/// The package does not link libsystemd (the CSdBus module has no `link`): without
/// `--notify`, announce starts exactly as before. sd-bus rather than libnotify: it is a
/// small C API around one file descriptor, which a thread of ours polls, where libnotify
/// delivers its signals through GLib's main loop (docs/notify.md). Only the functions
/// without C varargs are used, because Swift cannot call those.
struct Libsystemd: @unchecked Sendable {
  /// The library's file name, its soname in Debian 12 (systemd 252) and 13 (257) alike.
  static let fileName = "libsystemd.so.0"

  typealias Bus = OpaquePointer
  typealias Message = OpaquePointer
  typealias Slot = OpaquePointer
  typealias Handler =
    @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<sd_bus_error>?) -> Int32

  let new: @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
  let setAddress: @convention(c) (Bus, UnsafePointer<CChar>) -> Int32
  let setBusClient: @convention(c) (Bus, Int32) -> Int32
  let start: @convention(c) (Bus) -> Int32
  let flushCloseUnref: @convention(c) (Bus) -> OpaquePointer?
  let getFd: @convention(c) (Bus) -> Int32
  let getEvents: @convention(c) (Bus) -> Int32
  let getTimeout: @convention(c) (Bus, UnsafeMutablePointer<UInt64>) -> Int32
  let process: @convention(c) (Bus, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
  let newMethodCall:
    @convention(c) (
      Bus, UnsafeMutablePointer<OpaquePointer?>, UnsafePointer<CChar>, UnsafePointer<CChar>,
      UnsafePointer<CChar>, UnsafePointer<CChar>
    ) -> Int32
  let setAutoStart: @convention(c) (Message, Int32) -> Int32
  let appendBasic: @convention(c) (Message, CChar, UnsafeRawPointer) -> Int32
  let openContainer: @convention(c) (Message, CChar, UnsafePointer<CChar>) -> Int32
  let closeContainer: @convention(c) (Message) -> Int32
  let call:
    @convention(c) (
      Bus, Message, UInt64, UnsafeMutablePointer<sd_bus_error>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32
  let readBasic: @convention(c) (Message, CChar, UnsafeMutableRawPointer) -> Int32
  let enterContainer: @convention(c) (Message, CChar, UnsafePointer<CChar>?) -> Int32
  let exitContainer: @convention(c) (Message) -> Int32
  let messageUnref: @convention(c) (Message) -> OpaquePointer?
  /// `sd_bus_match_signal_async`: the match is sent, and its reply not waited for.
  let matchSignal:
    @convention(c) (
      Bus, UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
      UnsafePointer<CChar>?, UnsafePointer<CChar>?, Handler?, Handler?, UnsafeMutableRawPointer?
    ) -> Int32
  let errorFree: @convention(c) (UnsafeMutablePointer<sd_bus_error>) -> Void

  /// The library, loaded once; `nil` when it is not installed.
  static let shared: Libsystemd? = load()

  private static func load() -> Libsystemd? {
    guard let library = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else { return nil }
    func symbol<T>(_ name: String, as type: T.Type) -> T? {
      guard let address = dlsym(library, name) else { return nil }
      return unsafeBitCast(address, to: type)
    }
    guard
      let new = symbol(
        "sd_bus_new", as: (@convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32).self),
      let setAddress = symbol(
        "sd_bus_set_address", as: (@convention(c) (Bus, UnsafePointer<CChar>) -> Int32).self),
      let setBusClient = symbol("sd_bus_set_bus_client", as: (@convention(c) (Bus, Int32) -> Int32).self),
      let start = symbol("sd_bus_start", as: (@convention(c) (Bus) -> Int32).self),
      let flushCloseUnref = symbol(
        "sd_bus_flush_close_unref", as: (@convention(c) (Bus) -> OpaquePointer?).self),
      let getFd = symbol("sd_bus_get_fd", as: (@convention(c) (Bus) -> Int32).self),
      let getEvents = symbol("sd_bus_get_events", as: (@convention(c) (Bus) -> Int32).self),
      let getTimeout = symbol(
        "sd_bus_get_timeout", as: (@convention(c) (Bus, UnsafeMutablePointer<UInt64>) -> Int32).self),
      let process = symbol(
        "sd_bus_process", as: (@convention(c) (Bus, UnsafeMutablePointer<OpaquePointer?>?) -> Int32).self),
      let newMethodCall = symbol(
        "sd_bus_message_new_method_call",
        as: (@convention(c) (
          Bus, UnsafeMutablePointer<OpaquePointer?>, UnsafePointer<CChar>, UnsafePointer<CChar>,
          UnsafePointer<CChar>, UnsafePointer<CChar>
        ) -> Int32).self),
      let setAutoStart = symbol(
        "sd_bus_message_set_auto_start", as: (@convention(c) (Message, Int32) -> Int32).self),
      let appendBasic = symbol(
        "sd_bus_message_append_basic", as: (@convention(c) (Message, CChar, UnsafeRawPointer) -> Int32).self),
      let openContainer = symbol(
        "sd_bus_message_open_container",
        as: (@convention(c) (Message, CChar, UnsafePointer<CChar>) -> Int32).self),
      let closeContainer = symbol(
        "sd_bus_message_close_container", as: (@convention(c) (Message) -> Int32).self),
      let call = symbol(
        "sd_bus_call",
        as: (@convention(c) (
          Bus, Message, UInt64, UnsafeMutablePointer<sd_bus_error>?, UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32).self),
      let readBasic = symbol(
        "sd_bus_message_read_basic",
        as: (@convention(c) (Message, CChar, UnsafeMutableRawPointer) -> Int32).self),
      let enterContainer = symbol(
        "sd_bus_message_enter_container",
        as: (@convention(c) (Message, CChar, UnsafePointer<CChar>?) -> Int32).self),
      let exitContainer = symbol(
        "sd_bus_message_exit_container", as: (@convention(c) (Message) -> Int32).self),
      let messageUnref = symbol(
        "sd_bus_message_unref", as: (@convention(c) (Message) -> OpaquePointer?).self),
      let matchSignal = symbol(
        "sd_bus_match_signal_async",
        as: (@convention(c) (
          Bus, UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
          UnsafePointer<CChar>?, UnsafePointer<CChar>?, Handler?, Handler?, UnsafeMutableRawPointer?
        ) -> Int32).self),
      let errorFree = symbol(
        "sd_bus_error_free", as: (@convention(c) (UnsafeMutablePointer<sd_bus_error>) -> Void).self)
    else {
      dlclose(library)
      return nil
    }
    return Libsystemd(
      new: new, setAddress: setAddress, setBusClient: setBusClient, start: start,
      flushCloseUnref: flushCloseUnref, getFd: getFd, getEvents: getEvents, getTimeout: getTimeout,
      process: process, newMethodCall: newMethodCall, setAutoStart: setAutoStart,
      appendBasic: appendBasic, openContainer: openContainer, closeContainer: closeContainer,
      call: call, readBasic: readBasic, enterContainer: enterContainer, exitContainer: exitContainer,
      messageUnref: messageUnref, matchSignal: matchSignal, errorFree: errorFree)
  }
}
