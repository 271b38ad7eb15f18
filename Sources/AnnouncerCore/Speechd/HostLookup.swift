import Dispatch
import Glibc
import Synchronization

/// Finds the IPv4 address of the host in an `inet_socket:HOST:PORT` address within a
/// deadline, and says why not: a name that does not resolve is not a stopped daemon.
///
/// glibc's `getaddrinfo` has no bound of its own: with a name server that never answers
/// it waits resolv.conf's timeout for each attempt at each server (5 s and 2 attempts by
/// default), and announce waited out its whole 5 s connection bound in it, then said the
/// daemon was stopped. So a name is looked up on a thread of its own that the caller
/// stops waiting for at the deadline; `getaddrinfo` cannot be cancelled, so a lookup
/// that ends later ends unseen, and its thread with it.
package enum HostLookup {
  /// Why no address was found.
  package enum Failure: Error, Equatable {
    /// The name service answered that there is no such name, or failed at once.
    case doesNotResolve
    /// The name service had not answered by the deadline.
    case tookTooLong
  }

  /// Looks a name up, blocking; the default is glibc's `getaddrinfo`. Tests pass one
  /// that fails at once or never returns.
  package typealias Resolver = @Sendable (_ host: String) -> Result<in_addr, Failure>

  /// The address of `host`, with `port`, or why not, by `deadline` at the latest. A
  /// host written as an address (`127.0.0.1`) needs no lookup and no thread.
  package static func address(
    of host: String, port: Int, until deadline: ContinuousClock.Instant,
    resolver: @escaping Resolver = HostLookup.getaddrinfo
  ) -> Result<sockaddr_in, Failure> {
    var numeric = in_addr()
    let found: Result<in_addr, Failure> =
      inet_pton(AF_INET, host, &numeric) == 1
      ? .success(numeric) : lookUp(host, until: deadline, resolver: resolver)
    return found.map { address in
      var socketAddress = sockaddr_in()
      socketAddress.sin_family = sa_family_t(AF_INET)
      socketAddress.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
      socketAddress.sin_addr = address
      return socketAddress
    }
  }

  /// `resolver` on a thread of its own, waited for until `deadline`.
  private static func lookUp(
    _ host: String, until deadline: ContinuousClock.Instant, resolver: @escaping Resolver
  ) -> Result<in_addr, Failure> {
    let pending = Pending()
    guard SystemThread.start({ pending.settle(resolver(host)) }) else {
      // No thread to spare: the lookup is made here, unbounded, rather than not at all.
      return resolver(host)
    }
    let left = max(.zero, ContinuousClock.now.duration(to: deadline))
    let (seconds, attoseconds) = left.components
    let nanoseconds = Int(clamping: seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    guard pending.ended.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else {
      return .failure(.tookTooLong)
    }
    return pending.result.withLock { $0 } ?? .failure(.doesNotResolve)
  }

  /// The first IPv4 address `getaddrinfo` gives for `host`.
  package static let getaddrinfo: Resolver = { host in
    var hints = addrinfo()
    hints.ai_family = AF_INET
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var results: UnsafeMutablePointer<addrinfo>?
    guard Glibc.getaddrinfo(host, nil, &hints, &results) == 0, let first = results else {
      return .failure(.doesNotResolve)
    }
    defer { freeaddrinfo(results) }
    guard let address = first.pointee.ai_addr, first.pointee.ai_family == AF_INET else {
      return .failure(.doesNotResolve)
    }
    return .success(
      address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr })
  }

  /// A lookup's result, handed from its thread to the caller, who may have stopped waiting.
  private final class Pending: Sendable {
    let result = Mutex<Result<in_addr, Failure>?>(nil)
    let ended = DispatchSemaphore(value: 0)

    func settle(_ value: Result<in_addr, Failure>) {
      result.withLock { $0 = value }
      ended.signal()
    }
  }
}
