// CoreThroughput: announcements per second through Announcer, AnnouncementQueue
// and AnnouncementStateMachine, with a backend that "speaks" instantly.
//
//   swift run -c release --scratch-path .build-bench CoreThroughput [--quick]
//       [--count N] [--runs R] [--million N] [--only queue|stream|sequential|million]
//
// Scenarios (each timed with ContinuousClock over R runs of N announcements;
// the best and the median run are reported):
//   queue        AnnouncementQueue and its state machines alone, driven
//                synchronously with instant answers: the core's own cost
//   stream       enqueue with a check every 32 (as the command checks its inbox),
//                here waitForRoom(below: 1000) so that flood control never drops
//                and every announcement is spoken; a subscriber reads every event
//   sequential   one announce() at a time, awaiting each outcome: per-item latency
// Then `million`: N (default 1,000,000) announcements through the stream path,
// reporting the process's peak resident memory (getrusage ru_maxrss).
//
// The last lines are machine-readable, one per figure:
//   RESULT <name> <median per second> <best per second> <median µs per announcement>
//   PEAK_RSS_KIB <kibibytes> <announcements>
import AnnouncerCore
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A backend whose speech takes no time: every `say` is answered at once with
/// BEGIN, the final mark and END (a quiet probe with BEGIN and END).
final class InstantBackend: SpeechBackend {
  let events: AsyncStream<SpeechEvent>
  private let sink: AsyncStream<SpeechEvent>.Continuation
  private let lastID = Atomic(0)

  init() {
    (events, sink) = AsyncStream.makeStream(of: SpeechEvent.self)
  }

  func say(_ request: SpeechRequest) async throws(SpeechBackendError) -> MessageID {
    let id = lastID.add(1, ordering: .relaxed).newValue
    sink.yield(.began(id))
    if request.purpose == .announcement {
      sink.yield(.indexMark(id, name: SpeechRequest.finalMarkName))
    }
    sink.yield(.ended(id))
    return id
  }

  func cancelAll() async {}

  func close() async { sink.finish() }
}

/// How many announcements the producer lets wait at most, so that nothing is dropped
/// and memory stays bounded; and how often it checks, as the command checks its
/// inbox every 32 lines (a check per line would measure the handshake instead).
let roomBound = 1_000
let handshakeEvery = 32

struct Options {
  var count = 50_000
  var runs = 7
  var million = 1_000_000
  var quick = false
  /// Run only this scenario: stream, sequential or million (for profiling).
  var only: String?

  init(_ arguments: [String]) {
    var rest = arguments[...]
    func number(_ name: String) -> Int {
      guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
        fail("\(name) needs a positive whole number")
      }
      return value
    }
    var countGiven = false
    var runsGiven = false
    var millionGiven = false
    while let argument = rest.popFirst() {
      switch argument {
      case "--quick": quick = true
      case "--count":
        count = number(argument)
        countGiven = true
      case "--runs":
        runs = number(argument)
        runsGiven = true
      case "--million":
        million = number(argument)
        millionGiven = true
      case "--only":
        guard let name = rest.popFirst(), ["queue", "stream", "sequential", "million"].contains(name)
        else { fail("--only needs queue, stream, sequential or million") }
        only = name
      case "-h", "--help":
        print("usage: CoreThroughput [--quick] [--count N] [--runs R] [--million N] [--only SCENARIO]")
        exit(0)
      default: fail("unknown argument \(argument)")
      }
    }
    if quick {
      if !countGiven { count = 5_000 }
      if !runsGiven { runs = 3 }
      if !millionGiven { million = 100_000 }
    }
  }
}

func fail(_ message: String) -> Never {
  let line = Array("CoreThroughput: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(64)
}

/// The command's path: bounded producer, one subscriber reading every event.
/// Returns how many `spoken` events the subscriber saw.
func streamRun(_ announcements: [Announcement]) async -> Int {
  let announcer = Announcer(backend: InstantBackend())
  let events = announcer.events()
  let reporter = Task {
    var finished = 0
    for await event in events {
      if case .spoken = event.kind { finished += 1 }
    }
    return finished
  }
  for (index, announcement) in announcements.enumerated() {
    if index % handshakeEvery == 0 { await announcer.waitForRoom(below: roomBound) }
    announcer.enqueue(announcement)
  }
  await announcer.waitUntilIdle()
  await announcer.close()
  return await reporter.value
}

/// One announcement at a time: the round trip of a single announce().
func sequentialRun(_ announcements: [Announcement]) async -> Int {
  let announcer = Announcer(backend: InstantBackend())
  var spoken = 0
  for announcement in announcements where await announcer.announce(announcement).wasSpoken {
    spoken += 1
  }
  await announcer.close()
  return spoken
}

/// The queue and state machine alone, driven synchronously: each message is
/// answered at once with its id, BEGIN, the final mark and END, and each turn is
/// granted at once. This is the core's own cost, without the driver's task hand-offs.
func queueRun(_ announcements: [Announcement]) -> Int {
  var queue = AnnouncementQueue(maxWaiting: 50)
  var pending: [AnnouncementQueue.Action] = []
  var spoken = 0
  var lastMessageID = 0
  let now = Duration.zero
  for (index, announcement) in announcements.enumerated() {
    pending += queue.enqueue(announcement, id: AnnouncementID(index + 1), now: now, awaited: false)
    while let action = pending.popLast() {
      switch action {
      case .takeTurn(let id):
        pending += queue.turnTaken(id, now: now)
      case .submit(_, let submission):
        lastMessageID += 1
        pending += queue.submissionAccepted(submission, messageID: lastMessageID, now: now)
        pending += queue.handle(.began(lastMessageID), now: now)
        pending += queue.handle(.indexMark(lastMessageID, name: SpeechRequest.finalMarkName), now: now)
        pending += queue.handle(.ended(lastMessageID), now: now)
      case .deliver(_, let outcome):
        if outcome.wasSpoken { spoken += 1 }
      case .report, .cancelSpeech, .releaseTurn:
        break
      }
    }
  }
  return spoken
}

func seconds(_ duration: Duration) -> Double {
  let (whole, attoseconds) = duration.components
  return Double(whole) + Double(attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func format(_ value: Double, _ digits: Int = 0) -> String {
  var text = String(Int((value * pow(10, Double(digits))).rounded()))
  if digits > 0 {
    while text.count <= digits { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
  }
  return text
}

func measure(
  _ name: String, count: Int, runs: Int, _ body: ([Announcement]) async -> Int
) async {
  let announcements = (1...count).map { Announcement("Line \($0)", retryTimeout: .seconds(3)) }
  // Warm-up: caches, lazy runtime metadata, the cooperative pool's threads.
  _ = await body(Array(announcements.prefix(max(1, count / 10))))
  var rates: [Double] = []
  let clock = ContinuousClock()
  for _ in 0..<runs {
    let start = clock.now
    let finished = await body(announcements)
    let elapsed = seconds(start.duration(to: clock.now))
    guard finished == count else {
      fail("\(name): \(finished) of \(count) announcements finished")
    }
    rates.append(Double(count) / elapsed)
  }
  let mid = median(rates)
  let best = rates.max() ?? 0
  print(
    "\(name): median \(format(mid)) announcements/s, best \(format(best)) /s, "
      + "\(format(1e6 / mid, 2)) µs each (\(runs) runs of \(count))")
  print("RESULT \(name) \(format(mid)) \(format(best)) \(format(1e6 / mid, 3))")
}

func peakResidentKiB() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_maxrss  // KiB on Linux
}

func benchmarks(_ options: Options) async {
  func wanted(_ name: String) -> Bool { options.only == nil || options.only == name }
  if wanted("stream") {
    await measure("stream", count: options.count, runs: options.runs) {
      await streamRun($0)
    }
  }
  if wanted("queue") {
    await measure("queue", count: options.count, runs: options.runs) { queueRun($0) }
  }
  if wanted("sequential") {
    await measure("sequential", count: max(1, options.count / 5), runs: options.runs) {
      await sequentialRun($0)
    }
  }
  guard wanted("million") else { return }

  // A million through the bounded path, built lazily so the input itself takes no memory.
  do {
    let before = peakResidentKiB()
    let announcer = Announcer(backend: InstantBackend())
    let events = announcer.events()
    let reporter = Task {
      var finished = 0
      for await event in events {
        if case .spoken = event.kind { finished += 1 }
      }
      return finished
    }
    let clock = ContinuousClock()
    let start = clock.now
    for index in 1...options.million {
      if index % handshakeEvery == 0 { await announcer.waitForRoom(below: roomBound) }
      announcer.enqueue(Announcement("Line \(index)", retryTimeout: .seconds(3)))
    }
    await announcer.waitUntilIdle()
    await announcer.close()
    let spoken = await reporter.value
    let elapsed = seconds(start.duration(to: clock.now))
    guard spoken == options.million else { fail("million: \(spoken) of \(options.million) spoken") }
    let peak = peakResidentKiB()
    print(
      "million: \(options.million) announcements in \(format(elapsed, 2)) s "
        + "(\(format(Double(options.million) / elapsed)) /s), peak RSS \(format(Double(peak) / 1024, 1)) MiB "
        + "(\(format(Double(before) / 1024, 1)) MiB before)")
    print("PEAK_RSS_KIB \(peak) \(options.million)")
  }
}

// A plain main thread that waits, rather than an async main: valgrind 3.19
// crashes when the main thread sits in dispatchMain (as an async main does)
// while the runtime starts threads, and callgrind is how this is profiled.
let options = Options(Array(CommandLine.arguments.dropFirst()))
let finished = DispatchSemaphore(value: 0)
Task.detached {
  await benchmarks(options)
  finished.signal()
}
finished.wait()
