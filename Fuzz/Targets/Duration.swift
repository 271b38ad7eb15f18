@testable import announce

/// The duration grammar (``DurationText``), read by every option and variable of time.
///
/// - It agrees with ``ReferenceDuration``, the grammar written out again plainly here.
/// - A duration read is finite and not negative.
/// - Printed as announce prints seconds (``EventJSON/seconds(_:)``), it parses back to
///   itself within the printed millisecond, and that printed value is a fixed point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDuration(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = inputText(data, size)
  let parsed = DurationText.parse(text)
  let reference = ReferenceDuration.seconds(in: text)
  switch parsed {
  case .failure(.negative):
    require(text.hasPrefix("-"), "only a text with a minus sign is negative")
  case .failure(.malformed):
    require(
      reference == nil || reference?.isFinite == false,
      "the reference refuses it too: \(text.debugDescription)")
  case .success(let seconds):
    require(seconds.isFinite && seconds >= 0, "a duration is finite and not negative")
    guard let reference else {
      require(false, "the reference reads it too: \(text.debugDescription)")
      return 0
    }
    require(
      abs(reference - seconds) <= 1e-9 * max(1, seconds),
      "the reference reads the same: \(reference) against \(seconds)")
    guard seconds < 1e12 else { return 0 }
    let printed = EventJSON.seconds(.milliseconds(Int64((seconds * 1000).rounded())))
    guard case .success(let back) = DurationText.parse(printed) else {
      require(false, "a printed duration parses: \(printed)")
      return 0
    }
    require(
      abs(back - seconds) <= 0.0005 + 1e-9 * seconds,
      "a printed duration parses back: \(printed) is \(back), not \(seconds)")
    let again = EventJSON.seconds(.milliseconds(Int64((back * 1000).rounded())))
    require(again == printed, "printing what was read back prints the same: \(again) against \(printed)")
  }
  return 0
}

/// The grammar of ``DurationText`` as its documentation states it, written as plainly as
/// possible: parts of a number and a unit, the units `d h m s` in that order, each at most
/// once; or one number alone. A number is ASCII digits with at most one point, and a digit
/// on at least one side of it.
enum ReferenceDuration {
  static func seconds(in text: String) -> Double? {
    let scalars = Array(text.unicodeScalars)
    if let alone = number(scalars[...]) { return alone }
    let units: [(Unicode.Scalar, Double)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
    var rest = scalars[...]
    var total = 0.0
    var next = 0
    guard !rest.isEmpty else { return nil }
    while !rest.isEmpty {
      guard let end = rest.firstIndex(where: { !("0"..."9").contains($0) && $0 != "." }) else { return nil }
      guard let value = number(rest[..<end]),
        let unit = units[next...].firstIndex(where: { $0.0 == rest[end] })
      else { return nil }
      total += value * units[unit].1
      next = unit + 1
      rest = rest[(end + 1)...]
    }
    return total
  }

  static func number(_ scalars: ArraySlice<Unicode.Scalar>) -> Double? {
    let points = scalars.filter { $0 == "." }.count
    let digits = scalars.filter { ("0"..."9").contains($0) }.count
    guard points <= 1, digits >= 1, points + digits == scalars.count else { return nil }
    let text = String(String.UnicodeScalarView(scalars))
    return Double(text.hasPrefix(".") ? "0" + text : text)
  }
}
