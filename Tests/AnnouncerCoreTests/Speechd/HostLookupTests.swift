import Dispatch
import Glibc
import Synchronization
import Testing

@testable import AnnouncerCore

/// Looking up speech-dispatcher's host within a deadline: a name server that never
/// answers is given up on at the deadline, a name that fails is said as such, and an
/// address written as numbers needs no lookup at all.
@Suite struct HostLookupTests {
  /// A resolver that blocks until the test lets it go, as one whose name server never answers.
  final class NeverAnswering: Sendable {
    let released = DispatchSemaphore(value: 0)
    let calls = Mutex(0)

    var resolver: HostLookup.Resolver {
      { _ in
        self.calls.withLock { $0 += 1 }
        self.released.wait()
        return .failure(.doesNotResolve)
      }
    }
  }

  @Test func aNameServerThatNeverAnswersIsGivenUpOnAtTheDeadline() {
    let never = NeverAnswering()
    // Its thread is let go at the end, so that nothing of the test is left blocked.
    defer { never.released.signal() }
    let started = ContinuousClock.now
    let found = HostLookup.address(
      of: "speechd.example", port: 6560, until: .now + .milliseconds(300), resolver: never.resolver)
    let waited = started.duration(to: .now)
    #expect(found.failure == .tookTooLong)
    #expect(waited >= .milliseconds(250) && waited < .seconds(5), "waited \(waited)")
    #expect(never.calls.withLock { $0 } == 1)
  }

  @Test func aNameThatFailsAtOnceDoesNotResolveAtOnce() {
    let started = ContinuousClock.now
    let found = HostLookup.address(
      of: "speechd.invalid", port: 6560, until: .now + .seconds(10),
      resolver: { _ in .failure(.doesNotResolve) })
    #expect(found.failure == .doesNotResolve)
    #expect(started.duration(to: .now) < .seconds(5))
  }

  @Test func aResolvedNameGivesItsAddressWithThePort() throws {
    let found = HostLookup.address(
      of: "speechd.example", port: 6560, until: .now + .seconds(10),
      resolver: { _ in .success(in_addr(s_addr: inet_addr("192.0.2.7"))) })
    let address = try found.get()
    #expect(address.sin_addr.s_addr == inet_addr("192.0.2.7"))
    #expect(UInt16(bigEndian: address.sin_port) == 6560)
    #expect(address.sin_family == sa_family_t(AF_INET))
  }

  @Test func anAddressWrittenAsNumbersIsNotLookedUp() throws {
    let never = NeverAnswering()
    defer { never.released.signal() }
    let address = try HostLookup.address(
      of: "127.0.0.1", port: 6560, until: .now + .seconds(10), resolver: never.resolver
    ).get()
    #expect(address.sin_addr.s_addr == inet_addr("127.0.0.1"))
    #expect(never.calls.withLock { $0 } == 0)
  }
}

extension Result {
  /// The failure, or `nil` on success.
  fileprivate var failure: Failure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }
}
