import AnnouncerCore

/// What a finished run amounted to: how many announcements were not delivered, on which
/// channel and why (as the run's ``DeliveryPlan`` counts them), and how many input lines
/// were rejected.
struct RunSummary: Sendable, Equatable {
  /// How many announcements were not delivered, by channel and reason; a count, so a
  /// flood takes no memory.
  var failureCounts: [ChannelFailure: Int] = [:]
  /// How many input lines were rejected.
  var rejectedLines = 0
  /// Every reason some announcement was not delivered for.
  var failures: Set<ChannelFailure> { Set(failureCounts.keys) }
  /// How many announcements flood control left out.
  var dropped: Int { failureCounts.filter(\.key.wasSkipped).values.reduce(0, +) }

  /// Counts one announcement that the rule says was not delivered.
  mutating func count(_ failure: ChannelFailure) {
    failureCounts[failure, default: 0] += 1
  }
}
