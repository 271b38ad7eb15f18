import Foundation

/// A Unix socket that speaks just enough of speech-dispatcher's protocol for libspeechd to
/// connect and for announce to ask for lists, with the lists a test chooses: for daemons
/// the private stack cannot be, such as one with no output modules.
final class ScriptedSpeechd: Sendable {
  let path =
    NSTemporaryDirectory() + "announce-scripted-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
  private let listener: Int32
  /// With `holdingLibspeechd`: set once libspeechd's own connection has sent its first
  /// command, and signalled to let that connection's answers go.
  private let held = DispatchSemaphore(value: 0)
  private let letGo = DispatchSemaphore(value: 0)

  /// - Parameters:
  ///   - modules: what `LIST OUTPUT_MODULES` lists; the first is the default module.
  ///   - voices: what `LIST SYNTHESIS_VOICES` lists, as `name<TAB>language<TAB>variant` lines.
  ///   - holdingLibspeechd: leave libspeechd's first command unanswered until
  ///     ``letLibspeechdGo()``, so that `spd_open2` blocks in the middle of connecting.
  ///     announce's own check before libspeechd (its client name ends in `:check`) is
  ///     answered at once.
  init(modules: [String], voices: [String], holdingLibspeechd: Bool = false) throws {
    listener = try CommandTests.listeningSocket(at: path, backlog: 8)
    let listener = self.listener
    let hold = holdingLibspeechd ? (held, letGo) : nil
    Thread {
      while true {
        let client = accept(listener, nil, nil)
        if client < 0 { return }
        Thread { Self.serve(client, modules: modules, voices: voices, hold: hold) }.start()
      }
    }.start()
  }

  /// Waits until libspeechd's connection has sent its first command and is held.
  func waitUntilLibspeechdIsHeld(timeout: Double = 5) -> Bool {
    held.wait(timeout: .now() + timeout) == .success
  }

  /// Answers the held command, and everything after it.
  func letLibspeechdGo() { letGo.signal() }

  deinit {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    unlink(path)
  }

  private static func serve(
    _ client: Int32, modules: [String], voices: [String],
    hold: (held: DispatchSemaphore, letGo: DispatchSemaphore)?
  ) {
    var hold = hold
    defer { close(client) }
    var pending = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(client, &buffer, buffer.count)
      guard count > 0 else { return }
      pending.append(contentsOf: buffer[0..<count])
      while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(
          in: .whitespacesAndNewlines)
        pending.removeSubrange(...end)
        if let (held, letGo) = hold, line.hasPrefix("SET SELF CLIENT_NAME"), !line.hasSuffix(":check\"") {
          held.signal()
          letGo.wait()
        }
        hold = nil
        let reply = Self.reply(to: line, modules: modules, voices: voices)
        _ = reply.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        if line == "QUIT" { return }
      }
    }
  }

  /// speech-dispatcher's reply to `line`, in the shapes 0.11.4 sends.
  private static func reply(to line: String, modules: [String], voices: [String]) -> String {
    func list(_ code: Int, _ items: [String], _ end: String) -> String {
      items.map { "\(code)-\($0)\r\n" }.joined() + "\(code) \(end)\r\n"
    }
    switch line {
    case "HISTORY GET CLIENT_ID": return "245-1\r\n245 OK CLIENT ID SENT\r\n"
    case "LIST OUTPUT_MODULES": return list(250, modules, "OK MODULE LIST SENT")
    case "GET OUTPUT_MODULE": return list(251, Array(modules.prefix(1)), "OK GET RETURNED")
    case "LIST SYNTHESIS_VOICES": return list(249, voices, "OK VOICE LIST SENT")
    case "QUIT": return "231 HAPPY HACKING\r\n"
    default: return "200 OK\r\n"
    }
  }
}
