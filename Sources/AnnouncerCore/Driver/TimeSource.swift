/// Reads a clock as time elapsed since the announcer started.
struct TimeSource: Sendable {
  private let elapsed: @Sendable () -> Duration
  private let sleeper: @Sendable (Duration) async throws -> Void

  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let origin = clock.now
    elapsed = { origin.duration(to: clock.now) }
    sleeper = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
  }

  /// Time since the announcer started.
  func now() -> Duration { elapsed() }

  /// Sleeps until `moment`, measured since the announcer started.
  func sleep(until moment: Duration) async throws { try await sleeper(moment) }
}
