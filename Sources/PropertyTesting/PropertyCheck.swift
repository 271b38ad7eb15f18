import Glibc
import Synchronization
import Testing

/// Runs `body` on `count` values of `input`, drawn from one seed, and stops at the first
/// value it fails on, with an issue that names the value and the seed.
///
/// The seed is new at each run, so that runs keep looking at new values, unless the variable
/// ANNOUNCE_PROPERTY_SEED gives it (decimal or 0x hexadecimal): the issue of a failure says
/// `ANNOUNCE_PROPERTY_SEED=… swift test --filter …`, which draws the same values again.
/// Failures of `#expect` in `body` are recorded as they happen, and thrown errors as issues.
package func propertyCheck<Value>(
  count: Int, input: Gen<Value>, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (Value) throws -> Void
) {
  let seed = propertySeed()
  var generator = SeededGenerator(seed: seed)
  for index in 0..<count {
    let value = input.next(&generator)
    // Swift Testing (6.0) has no question "did this fail?"; a known issue's matcher sees
    // every issue `body` records and, answering false, records it as usual.
    let failures = FailureCount()
    withKnownIssue(isIntermittent: true, sourceLocation: sourceLocation) {
      do { try body(value) } catch { Issue.record(error, sourceLocation: sourceLocation) }
    } matching: { _ in
      failures.add()
      return false
    }
    if failures.count > 0 {
      Issue.record(
        """
        Failed on value \(index + 1) of \(count), \(String(reflecting: value)); \
        ANNOUNCE_PROPERTY_SEED=\(seed) draws the same values again.
        """,
        sourceLocation: sourceLocation)
      return
    }
  }
}

/// The seed of a property check: ANNOUNCE_PROPERTY_SEED's, or a new one.
private func propertySeed() -> UInt64 {
  if let text = getenv("ANNOUNCE_PROPERTY_SEED").map({ String(cString: $0) }) {
    let seed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    if let seed { return seed }
  }
  return UInt64.random(in: .min ... .max)
}

/// How many issues a case recorded, counted from the matcher, which may run on any thread.
private final class FailureCount: Sendable {
  private let issues = Mutex(0)
  var count: Int { issues.withLock { $0 } }
  func add() { issues.withLock { $0 += 1 } }
}
