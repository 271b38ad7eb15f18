/// The one bound of a whole `announce doctor` run: every step is given what is left of
/// it, at most its own bound, so that doctor ends within ``whole`` however many steps
/// meet a daemon, a sound server or a brltty that does not answer.
///
/// The steps' own bounds add up to more (2 s for the daemon, 6 s for the test sentence,
/// 1.5 s for each sound tool, 2 s for tmux and for brltty), and a connect to a listener
/// whose backlog is full can block in the kernel; so each step is raced against its share
/// with ``Race/within(_:timer:_:)``, and one that outlives it is left behind, not waited
/// for, and the process ends without it.
struct DoctorDeadline: Sendable {
  /// The whole run, from the first check to the last line: under the 8 s that a person
  /// waits, with room for the process to start and end.
  static let whole: Duration = .milliseconds(7500)

  /// When the run must have ended.
  let end: ContinuousClock.Instant

  init(from start: ContinuousClock.Instant = .now, lasting whole: Duration = DoctorDeadline.whole) {
    end = start + whole
  }

  /// What is left, never less than zero.
  var left: Duration { max(.zero, ContinuousClock.now.duration(to: end)) }

  /// `bound`, or what is left when that is less, keeping `reserve` for the steps after.
  func share(_ bound: Duration, keeping reserve: Duration = .zero) -> Duration {
    min(bound, max(.zero, left - reserve))
  }

  /// Whether nothing is left for another step.
  var isOver: Bool { left <= .milliseconds(50) }
}
