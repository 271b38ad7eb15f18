/// A duration as the user writes it, read the one way every option and variable reads it.
///
/// The grammar: one or more parts, each a decimal number followed by a unit, `d`, `h`,
/// `m` or `s` (days, hours, minutes, seconds), the units in that order and each at most
/// once, such as `2d`, `1h30m`, `90s` or `1.5h`; or a number alone, which is seconds,
/// such as `90` or `2.5`. A number is digits with at most one decimal point and a digit
/// on at least one side of it. There is no sign, exponent, hexadecimal, space or other
/// unit: `0x10` is not 16, and `-1m` is refused as negative.
enum DurationText {
  /// Why a text is not a duration.
  enum Failure: Error, Equatable {
    /// It starts with a minus sign: a time to come is never asked for.
    case negative
    /// It does not follow the grammar.
    case malformed
  }

  /// The unit letters, largest first, with their seconds.
  private static let units: [(letter: Character, seconds: Double)] = [
    ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1),
  ]

  /// The seconds in `text`; `nil` when it is not a duration.
  static func seconds(in text: String) -> Double? {
    try? parse(text).get()
  }

  /// The seconds in `text`, or why it is not a duration.
  static func parse(_ text: String) -> Result<Double, Failure> {
    if text.hasPrefix("-") { return .failure(.negative) }
    var rest = Substring(text)
    var total = 0.0
    var nextUnit = 0
    var parts = 0
    while !rest.isEmpty {
      let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
      guard let value = decimal(number) else { return .failure(.malformed) }
      rest = rest.dropFirst(number.count)
      parts += 1
      guard let letter = rest.first else {
        // A number without a unit is seconds, and only on its own.
        return parts == 1 ? .success(value) : .failure(.malformed)
      }
      guard let index = units[nextUnit...].firstIndex(where: { $0.letter == letter }) else {
        return .failure(.malformed)
      }
      total += value * units[index].seconds
      nextUnit = index + 1
      rest = rest.dropFirst()
      if !rest.isEmpty && nextUnit == units.count { return .failure(.malformed) }
    }
    return parts > 0 && total.isFinite ? .success(total) : .failure(.malformed)
  }

  /// The value of digits with at most one decimal point; `nil` for anything else.
  private static func decimal(_ text: Substring) -> Double? {
    let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
    guard pieces.count <= 2, pieces.contains(where: { !$0.isEmpty }),
      pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
    else { return nil }
    return Double(text.hasPrefix(".") ? "0" + text : text)
  }
}
