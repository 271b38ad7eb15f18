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
  ///
  /// - Parameter described: libbrlapi's description of `code` (`brlapi_describeKeyCode`:
  ///   its command name and argument). With it, a key that is not for panning is named
  ///   as brltty and its Virtual driver name it, in lower case: `home`, `route 3`.
  ///   Without it, such a key is `route N` or `command N`.
  static func key(_ code: UInt64, described: (command: String, argument: UInt32)? = nil) -> BrailleKey? {
    guard code & typeMask == typeCommand else {
      return .other(name: "keyboard key")
    }
    let block = code & blockMask
    let argument = code & argumentMask
    switch (block, argument) {
    case (0, 0): return nil  // NOOP
    // LNDN, WINDN, NXDIFLN, NXPGRPH, HWINRT, FWINRT, FWINRTSKIP
    case (0, 2), (0, 4), (0, 6), (0, 14), (0, 22), (0, 24), (0, 26): return .panForward
    // LNUP, WINUP, PRDIFLN, PRPGRPH, HWINLT, FWINLT, FWINLTSKIP
    case (0, 1), (0, 3), (0, 5), (0, 13), (0, 21), (0, 23), (0, 25): return .panBack
    // TOP, TOP_LEFT
    case (0, 9), (0, 11): return .first
    // BOT, BOT_LEFT
    case (0, 10), (0, 12): return .last
    default: break
    }
    if let described {
      let command = described.command.lowercased()
      // Only a block's commands (a routing key's cell, a character) carry an argument.
      return .other(name: block == 0 ? command : "\(command) \(described.argument)")
    }
    if block == routeBlock { return .other(name: "route \(argument)") }
    return .other(name: "command \(block == 0 ? argument : block >> 16)")
  }
}
