import AnnouncerCore

/// What a finished run amounted to: how many announcements were not delivered, and why,
/// and how many input lines were rejected.
struct RunSummary: Sendable, Equatable {
  /// How many announcements were not delivered, by reason; a count, so a flood takes no memory.
  var failureCounts: [GiveUpReason: Int] = [:]
  /// How many input lines were rejected.
  var rejectedLines = 0
  /// Every reason some announcement was not delivered for.
  var failures: Set<GiveUpReason> { Set(failureCounts.keys) }
  /// How many announcements flood control dropped.
  var dropped: Int { failureCounts[.dropped] ?? 0 }
}
