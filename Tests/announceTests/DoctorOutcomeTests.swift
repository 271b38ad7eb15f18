import Foundation
import Testing

@testable import announce

/// The one function that turns doctor's findings into its exit status.
@Suite struct DoctorOutcomeTests {
  @Test(arguments: DoctorFinding.allCases, DoctorFinding.allCases)
  func everyPairOfFindingsGivesTheWorstOfThem(first: DoctorFinding, second: DoctorFinding) {
    let findings = [first, second]
    let expected: DoctorOutcome =
      findings.contains(.speechUnavailable)
      ? .speechUnavailable : findings.contains(.somethingElseBroken) ? .somethingElseBroken : .fine
    #expect(DoctorOutcome.of(findings) == expected)
    #expect(DoctorOutcome.of(findings.reversed()) == expected)
  }

  @Test func theStatusesAreThoseTheManPageGives() {
    #expect(ExitStatus.of(DoctorOutcome.of([]).result) == 0)
    #expect(ExitStatus.of(DoctorOutcome.of([.fine, .notInUse, .skipped]).result) == 0)
    #expect(ExitStatus.of(DoctorOutcome.of([.fine, .somethingElseBroken, .notInUse]).result) == 1)
    #expect(ExitStatus.of(DoctorOutcome.of([.somethingElseBroken, .speechUnavailable, .fine]).result) == 69)
  }

  @Test func aLineIsOneJSONObjectWithItsFacts() throws {
    let line = DoctorLine(
      check: "shell-hook", finding: .fine, sentence: "Said \"so\".",
      facts: [("active", .flag(true)), ("minSeconds", .number(5)), ("ignore", .texts(["vim", "less"]))])
    #expect(!line.json.contains("\n"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.json.utf8)) as? [String: Any])
    #expect(object["check"] as? String == "shell-hook")
    #expect(object["finding"] as? String == "fine")
    #expect(object["text"] as? String == "Said \"so\".")
    #expect(object["active"] as? Bool == true)
    #expect(object["minSeconds"] as? Double == 5)
    #expect(object["ignore"] as? [String] == ["vim", "less"])
  }
}
