import CBrlapi
import Glibc

/// The few libbrlapi functions announce uses, found with `dlopen` and `dlsym` the first
/// time braille is asked for.
///
/// The package does not link libbrlapi (the CBrlapi module has no `link`): without
/// braille, announce starts exactly as before and does not need brltty's library
/// installed. Only the handle-based `brlapi__*` functions are used, so there is no
/// global connection state.
struct Libbrlapi: @unchecked Sendable {
  /// The library's file name: its soname in Debian 12 (6.5) and 13 (6.7) alike.
  static let fileName = "libbrlapi.so.0.8"

  typealias Handle = UnsafeMutableRawPointer
  typealias ExceptionHandler =
    @convention(c) (Handle?, Int32, UInt32, UnsafeRawPointer?, Int) -> Void

  let getHandleSize: @convention(c) () -> Int
  let openConnection:
    @convention(c) (
      Handle, UnsafePointer<brlapi_connectionSettings_t>?,
      UnsafeMutablePointer<brlapi_connectionSettings_t>?
    ) -> Int32
  let closeConnection: @convention(c) (Handle) -> Void
  let setExceptionHandler: @convention(c) (Handle, ExceptionHandler?) -> ExceptionHandler?
  let enterTtyModeWithPath:
    @convention(c) (Handle, UnsafePointer<Int32>?, Int32, UnsafePointer<CChar>?) -> Int32
  let leaveTtyMode: @convention(c) (Handle) -> Int32
  let getDisplaySize:
    @convention(c) (Handle, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>) -> Int32
  let setParameter: @convention(c) (Handle, UInt32, UInt64, UInt32, UnsafeRawPointer?, Int) -> Int32
  let write: @convention(c) (Handle, UnsafePointer<brlapi_writeArguments_t>) -> Int32
  let readKeyWithTimeout: @convention(c) (Handle, Int32, UnsafeMutablePointer<UInt64>) -> Int32
  let errorLocation: @convention(c) () -> UnsafeMutablePointer<brlapi_error_t>?
  let strerrorR: @convention(c) (UnsafePointer<brlapi_error_t>?, UnsafeMutablePointer<CChar>?, Int) -> Int
  /// `brlapi_describeKeyCode`, which names a key as brltty does; optional, so that a
  /// library without it still shows flashes (keys are then named by number).
  let describeKeyCode: (@convention(c) (UInt64, UnsafeMutablePointer<brlapi_describedKeyCode_t>) -> Int32)?

  /// The library, loaded once; `nil` when it is not installed.
  static let shared: Libbrlapi? = load()

  private static func load() -> Libbrlapi? {
    guard let library = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else { return nil }
    func symbol<T>(_ name: String, as type: T.Type) -> T? {
      guard let address = dlsym(library, name) else { return nil }
      return unsafeBitCast(address, to: type)
    }
    guard
      let getHandleSize = symbol("brlapi_getHandleSize", as: (@convention(c) () -> Int).self),
      let openConnection = symbol(
        "brlapi__openConnection",
        as: (@convention(c) (
          Handle, UnsafePointer<brlapi_connectionSettings_t>?,
          UnsafeMutablePointer<brlapi_connectionSettings_t>?
        ) -> Int32).self),
      let closeConnection = symbol(
        "brlapi__closeConnection", as: (@convention(c) (Handle) -> Void).self),
      let setExceptionHandler = symbol(
        "brlapi__setExceptionHandler",
        as: (@convention(c) (Handle, ExceptionHandler?) -> ExceptionHandler?).self),
      let enterTtyModeWithPath = symbol(
        "brlapi__enterTtyModeWithPath",
        as: (@convention(c) (Handle, UnsafePointer<Int32>?, Int32, UnsafePointer<CChar>?) -> Int32)
          .self),
      let leaveTtyMode = symbol("brlapi__leaveTtyMode", as: (@convention(c) (Handle) -> Int32).self),
      let getDisplaySize = symbol(
        "brlapi__getDisplaySize",
        as: (@convention(c) (Handle, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>) ->
          Int32).self),
      let setParameter = symbol(
        "brlapi__setParameter",
        as: (@convention(c) (Handle, UInt32, UInt64, UInt32, UnsafeRawPointer?, Int) -> Int32).self),
      let write = symbol(
        "brlapi__write",
        as: (@convention(c) (Handle, UnsafePointer<brlapi_writeArguments_t>) -> Int32).self),
      let readKeyWithTimeout = symbol(
        "brlapi__readKeyWithTimeout",
        as: (@convention(c) (Handle, Int32, UnsafeMutablePointer<UInt64>) -> Int32).self),
      let errorLocation = symbol(
        "brlapi_error_location",
        as: (@convention(c) () -> UnsafeMutablePointer<brlapi_error_t>?).self),
      let strerrorR = symbol(
        "brlapi_strerror_r",
        as: (@convention(c) (UnsafePointer<brlapi_error_t>?, UnsafeMutablePointer<CChar>?, Int) -> Int)
          .self)
    else {
      dlclose(library)
      return nil
    }
    let describeKeyCode = symbol(
      "brlapi_describeKeyCode",
      as: (@convention(c) (UInt64, UnsafeMutablePointer<brlapi_describedKeyCode_t>) -> Int32).self)
    return Libbrlapi(
      getHandleSize: getHandleSize, openConnection: openConnection,
      closeConnection: closeConnection, setExceptionHandler: setExceptionHandler,
      enterTtyModeWithPath: enterTtyModeWithPath, leaveTtyMode: leaveTtyMode,
      getDisplaySize: getDisplaySize, setParameter: setParameter, write: write,
      readKeyWithTimeout: readKeyWithTimeout, errorLocation: errorLocation, strerrorR: strerrorR,
      describeKeyCode: describeKeyCode)
  }

  /// The calling thread's last BrlAPI error, as libbrlapi words it.
  func lastError() -> String {
    guard let error = errorLocation() else { return "unknown error" }
    var buffer = [CChar](repeating: 0, count: 256)
    _ = strerrorR(error, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// brltty's own name of the command `code` carries and its argument, such as `("HOME", 0)`
  /// or `("ROUTE", 3)`; `nil` when libbrlapi cannot describe it.
  func describe(_ code: UInt64) -> (command: String, argument: UInt32)? {
    guard let describeKeyCode else { return nil }
    var description = brlapi_describedKeyCode_t()
    guard describeKeyCode(code, &description) == 0, let command = description.command else { return nil }
    return (String(cString: command), description.argument)
  }

  /// The calling thread's last BrlAPI error number (`BRLAPI_ERROR_*`).
  func lastErrorNumber() -> UInt32 {
    errorLocation()?.pointee.brlerrno.rawValue ?? 0
  }
}
