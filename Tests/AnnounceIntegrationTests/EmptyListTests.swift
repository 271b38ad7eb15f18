import Foundation
import Testing

extension CommandTests {
  /// An empty list is no success: before, `--list-modules` printed nothing and exited 0.
  @Test func aDaemonWithNoOutputModulesIsOneSentenceAndExit69() throws {
    let daemon = try ScriptedSpeechd(modules: [], voices: [])
    let result = try announce(["--address", "unix_socket:\(daemon.path)", "--list-modules"])
    #expect(result.status == 69, "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains("lists no output modules"), "\(result.standardError)")
    #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
  }

  /// A module that lists no voices, as generic modules do: before, nothing and exit 0.
  @Test(arguments: [["--list-voices"], ["--list-voices", "-o", "generic"]])
  func aModuleWithNoVoicesIsOneSentenceAndExit69(arguments: [String]) throws {
    let daemon = try ScriptedSpeechd(modules: ["generic"], voices: [])
    let result = try announce(["--address", "unix_socket:\(daemon.path)"] + arguments)
    #expect(result.status == 69, "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains("lists no voices"), "\(result.standardError)")
    #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
  }

  @Test func theScriptedDaemonsListsArePrinted() throws {
    let daemon = try ScriptedSpeechd(modules: ["generic", "other"], voices: ["Robot\ten\tnone"])
    let modules = try announce(["--address", "unix_socket:\(daemon.path)", "--list-modules"])
    #expect(modules.status == 0, "\(modules.standardError)")
    #expect(modules.standardOutput == "generic\nother\n")
    let voices = try announce(["--address", "unix_socket:\(daemon.path)", "--list-voices"])
    #expect(voices.status == 0, "\(voices.standardError)")
    #expect(voices.standardOutput == "Robot\ten\tnone\n")
  }
}
