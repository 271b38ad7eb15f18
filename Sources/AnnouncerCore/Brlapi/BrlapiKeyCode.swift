/// What a BrlAPI key code means to a flash.
///
/// In tty mode with no driver name, brltty sends commands: the type bits say
/// "command", a block says which kind, and an argument says which one (a routing key's
/// cell, 0-based). The values are those of `brlapi_keycodes.h` and `brlapi_constants.h`
/// (the same in 6.5 and 6.7); Swift does not import those macros.
enum BrlapiKeyCode {
  private static let typeMask: UInt64 = 0xE000_0000
  private static let typeCommand: UInt64 = 0x2000_0000
  private static let blockMask: UInt64 = 0x1FFF_0000
  private static let argumentMask: UInt64 = 0x0000_FFFF
  /// `BRLAPI_KEY_CMD_ROUTE`: a routing key.
  private static let routeBlock: UInt64 = 1 << 16

  /// The meaning of `code`; `nil` for brltty's "no operation", which is no key press.
  static func key(_ code: UInt64) -> BrailleKey? {
    guard code & typeMask == typeCommand else {
      return .other(name: "keyboard key")
    }
    let block = code & blockMask
    let argument = code & argumentMask
    if block == routeBlock { return .other(name: "route \(argument)") }
    guard block == 0 else { return .other(name: "command \(block >> 16)") }
    switch argument {
    case 0: return nil  // NOOP
    // LNDN, WINDN, NXDIFLN, NXPGRPH, HWINRT, FWINRT, FWINRTSKIP
    case 2, 4, 6, 14, 22, 24, 26: return .panForward
    // LNUP, WINUP, PRDIFLN, PRPGRPH, HWINLT, FWINLT, FWINLTSKIP
    case 1, 3, 5, 13, 21, 23, 25: return .panBack
    // TOP, TOP_LEFT
    case 9, 11: return .first
    // BOT, BOT_LEFT
    case 10, 12: return .last
    default: return .other(name: "command \(argument)")
    }
  }
}
