import Foundation
import Testing

extension SpeakingTests.CommandLine {
  /// A JSON line whose meaning is unclear is skipped with one sentence that names its
  /// line and the fix, the good lines are still spoken, and the run exits 65.
  @Test func ambiguousAndInvalidJSONLinesAreSkippedWithTheirLineAndTheRunExits65() throws {
    let input = """
      {"text": "Saved", "text": "Deleted"}
      {"text": "Done", "rate": 100.5}
      {"text": "\\ud800"}
      {"text": "Built", "priority": "MESSAGE"}

      """
    let result = try announce(["--input", "json", "--json"], input: input)
    #expect(result.status == 65, "\(result.standardError)")
    #expect(
      result.standardError.split(separator: "\n").map(String.init) == [
        "Skipped input line 1: it has the key \"text\" twice, so its value is ambiguous; give each key once.",
        "Skipped input line 2: \"rate\" must be a whole number from -100 to 100, not 100.5.",
        "Skipped input line 3: the \"text\" field has \\ud800, half of a UTF-16 surrogate pair, which is no "
          + "character; write the character itself, or both halves of its pair.",
      ])
    let events = jsonEvents(result.standardOutput)
    let rejected = events.filter { $0["event"] as? String == "rejected" }
    #expect(rejected.compactMap { $0["line"] as? Int } == [1, 2, 3])
    let spoken = events.filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
    #expect(spoken == ["Built"])
  }
}
