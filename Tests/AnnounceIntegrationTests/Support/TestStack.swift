import Foundation
import Synchronization
import Testing

/// The project's private PulseAudio (null sink) and speech-dispatcher, started
/// through `Tests/Support/teststack`. It never touches the user's own speech.
final class TestStack: Sendable {
  /// The package root, found from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let script = packageRoot.appendingPathComponent("Tests/Support/teststack").path

  /// The stack's directory.
  let directory: String
  /// What the stack wrote to its `env` file: SPEECHD_ADDRESS, PULSE_SERVER and more.
  let environment: [String: String]

  /// `SPEECHD_ADDRESS` of the private daemon.
  var address: String { environment["SPEECHD_ADDRESS"] ?? "" }

  /// The Debian release whose speech-dispatcher runs: "12" (0.11.4) or "13" (0.12), as
  /// `TESTSTACK_RELEASE` chose it for the whole test run.
  var release: String { environment["TESTSTACK_RELEASE"] ?? "12" }

  /// Whether the daemon is speech-dispatcher 0.12 or later (Debian 13).
  var isRelease012: Bool { release == "13" }

  /// Whether the test run plays through PipeWire (`TESTSTACK_SOUND=pipewire`) rather
  /// than PulseAudio; known before any stack starts, for tests that only PipeWire can run.
  static var runsPipeWire: Bool {
    ProcessInfo.processInfo.environment["TESTSTACK_SOUND"] == "pipewire"
  }

  /// Sets the latency that PipeWire's default sink, "speakers", reports, in quanta: 1 as a
  /// sound card does (as the stack starts), 0 as a null sink does.
  func setSpeakersLatency(_ quanta: String) throws {
    let result = try Command.run(Self.script, ["speakers-latency", directory, quanta])
    guard result.status == 0 else {
      throw StackError("teststack speakers-latency failed: \(result.standardError)")
    }
  }

  /// How a stack's speech-dispatcher is started.
  enum Start {
    /// At once, warmed up with a first message.
    case normal
    /// With no reachable audio server: messages get BEGIN and then no other event.
    case brokenAudio
    /// By systemd-socket-activate on the first connection, as Debian 13's user unit
    /// does, and not warmed up.
    case socketActivated

    var arguments: [String] {
      switch self {
      case .normal: []
      case .brokenAudio: ["--broken-audio"]
      case .socketActivated: ["--socket-activated"]
      }
    }
  }

  /// The stack every integration suite shares; started once, stopped when the test process exits.
  static let shared = startOnce(name: "shared")

  /// A second stack whose speech-dispatcher cannot reach any audio server.
  static let brokenAudio = startOnce(name: "broken-audio", .brokenAudio)

  private static func startOnce(name: String, _ start: Start = .normal) -> Result<TestStack, StackError> {
    do {
      return .success(try TestStack.start(name: name, start))
    } catch let error as StackError {
      return .failure(error)
    } catch {
      return .failure(StackError("\(error)"))
    }
  }

  private static let started = Mutex<[String]>([])

  /// Starts a stack in a fresh directory under the system's temporary directory.
  static func start(name: String, _ start: Start = .normal) throws -> TestStack {
    let directory = NSTemporaryDirectory() + "announce-tests-\(getpid())-\(name)"
    let result = try Command.run(script, ["start", directory] + start.arguments)
    guard result.status == 0 else {
      throw StackError("teststack start failed: \(result.standardError)")
    }
    let isFirst = started.withLock {
      $0.append(directory)
      return $0.count == 1
    }
    if isFirst { atexit { TestStack.stopAll() } }
    try FileManager.default.createDirectory(
      atPath: directory + "/client-home", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let text = try String(contentsOfFile: directory + "/env", encoding: .utf8)
    var environment: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return TestStack(directory: directory, environment: environment)
  }

  private init(directory: String, environment: [String: String]) {
    self.directory = directory
    self.environment = environment
  }

  /// Starts the stack again in the same directory, at the same socket, after ``stop()``.
  func startAgain() throws {
    let result = try Command.run(Self.script, ["start", directory])
    guard result.status == 0 else {
      throw StackError("teststack start failed: \(result.standardError)")
    }
  }

  /// Kills the stack's processes.
  func stop() {
    _ = try? Command.run(Self.script, ["stop", directory])
  }

  /// Stops every stack this process started.
  static func stopAll() {
    for directory in started.withLock({ $0 }) {
      _ = try? Command.run(script, ["stop", directory])
      // ANNOUNCE_KEEP_TEST_STACKS=1 keeps the daemons' logs for a post-mortem.
      if ProcessInfo.processInfo.environment["ANNOUNCE_KEEP_TEST_STACKS"] != "1" {
        try? FileManager.default.removeItem(atPath: directory)
      }
    }
  }

  /// Starts recording the null sink's monitor.
  func record() throws -> Recording {
    try Recording(stack: self)
  }

  /// The environment for a client of this stack: ours, with its address and audio server.
  func clientEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in ["SPEECHD_ADDRESS", "PULSE_SERVER"] { environment[key] = self.environment[key] }
    // A HOME of the stack's own: doctor's `pactl info`, like any PulseAudio client with
    // no XDG_RUNTIME_DIR, writes a cookie and a runtime link under ~/.config/pulse, and
    // the clean room found them in the real HOME.
    environment["HOME"] = directory + "/client-home"
    // Every run records its outcomes: in the stack's own folder, never the user's log.
    environment["XDG_STATE_HOME"] = directory + "/state"
    environment.merge(extra) { _, new in new }
    return environment
  }
}

struct StackError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A recording of what the private PulseAudio played.
final class Recording: @unchecked Sendable {
  let path: String
  /// When the recording began, near enough: parec is connected and writing.
  private(set) var startedAt = Date()
  private let process: Running

  fileprivate init(stack: TestStack) throws {
    path = stack.directory + "/recording-\(UUID().uuidString).raw"
    process = try Running(TestStack.script, ["record", stack.directory, path])
    // parec needs a moment to connect; wait until it has created its file.
    let deadline = Date().addingTimeInterval(5)
    while !FileManager.default.fileExists(atPath: path), Date() < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    Thread.sleep(forTimeInterval: 0.2)
    startedAt = Date()
  }

  /// Waits until the null sink has played at least `seconds` of speech since the
  /// recording began; false after `timeout`.
  ///
  /// BEGIN says that speech-dispatcher has started the message, not that its sound
  /// plays. Under load BEGIN came 2.0 to 2.1 s after the attempt and a `message` sent
  /// right after it did not cut our `text` off (2 runs in about 60, on both releases),
  /// so a test whose premise is "ours is playing, now cut it off" waits for sound.
  func waitForSpeech(seconds: Double = 0.2, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let data = FileManager.default.contents(atPath: path) ?? Data()
      if Self.speechSeconds(in: data) >= seconds { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return false
  }

  /// Stops recording and returns how many seconds of it are speech:
  /// 20 ms windows whose RMS is above 0.01 of full scale.
  func stop() -> Double {
    Self.speechSeconds(in: stopKeepingData())
  }

  /// Stops recording and returns the raw samples.
  func stopKeepingData() -> Data {
    process.send(SIGTERM)
    _ = process.wait(timeout: 5)
    let data = FileManager.default.contents(atPath: path) ?? Data()
    try? FileManager.default.removeItem(atPath: path)
    return data
  }

  /// A moment of the recording: when it was, and how much parec had written by then.
  struct Moment {
    let date: Date
    let bytesWritten: Int
  }

  /// Now, as a moment of the recording.
  func now() -> Moment {
    let date = Date()
    var status = stat()
    let size = stat(path, &status) == 0 ? Int(status.st_size) : 0
    return Moment(date: date, bytesWritten: size)
  }

  /// The part of `data` recorded from `seconds` after `moment` on.
  ///
  /// The moment's place in the samples is the later of two estimates, as each one can
  /// only place it too early: the clock, since ``startedAt`` is taken after parec began
  /// (late when the test's thread wakes late: 0.7 s of speech before a SIGHUP counted as
  /// after it, once in a CI run on 2 loaded cores), and the bytes parec had written,
  /// which lag what it has heard.
  func samples(in data: Data, after moment: Moment, plus seconds: Double = 0) -> Data {
    let byClock = max(0, moment.date.timeIntervalSince(startedAt)) * Double(Self.sampleRate) * 2
    let start = max(Int(byClock), moment.bytesWritten) + Int(seconds * Double(Self.sampleRate)) * 2
    let byteOffset = min(data.count, start - start % 2)
    return data.subdata(in: byteOffset..<data.count)
  }

  static let sampleRate = 16_000

  /// Seconds of 20 ms windows whose RMS is above 0.01, in raw s16le mono at 16 kHz.
  static func speechSeconds(in data: Data) -> Double {
    let window = sampleRate / 50
    var loudWindows = 0
    data.withUnsafeBytes { raw in
      let samples = raw.bindMemory(to: Int16.self)
      var start = 0
      while start + window <= samples.count {
        var sum = 0.0
        for sample in samples[start..<start + window] {
          let value = Double(Int16(littleEndian: sample)) / 32768
          sum += value * value
        }
        if (sum / Double(window)).squareRoot() > 0.01 { loudWindows += 1 }
        start += window
      }
    }
    return Double(loudWindows) / 50
  }
}
