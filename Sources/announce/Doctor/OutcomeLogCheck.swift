import FoundationEssentials

/// Check 6: where the outcome log, which is also the history, is, and whether it can be
/// written; the same tests a run makes before it records anything.
struct OutcomeLogCheck {
  var environment: [String: String]

  func run() -> DoctorLine {
    let log = OutcomeLog.forUser(environment: environment)
    let facts: [(String, DoctorFact)] = [("path", .text(log.path))]
    let isOn: Bool
    do {
      isOn = try HistorySwitch.isOn(environment: environment)
    } catch {
      // What a run would refuse, such as a relative HOME, which would put the log
      // wherever announce runs: said as the run says it, and nothing is made there.
      return DoctorLine(
        check: "log", finding: .somethingElseBroken, said: RunFailure(readingSettings: error).sentence,
        facts: facts + [("writable", .flag(false))])
    }
    if !isOn {
      return DoctorLine(
        check: "log", finding: .notInUse,
        said: localized(
          "Outcomes are not recorded, because {variable} is off, so announce history and replay have nothing; unset it to record them in {path}.",
          ["variable": HistorySwitch.variable, "path": log.path]),
        facts: facts + [("writable", .flag(false))])
    }
    if let problem = log.problem() {
      return DoctorLine(
        check: "log", finding: .somethingElseBroken, said: problem,
        facts: facts + [("writable", .flag(false))])
    }
    return DoctorLine(
      check: "log", finding: .fine,
      said: localized(
        "Outcomes and the history are kept in {path}, which can be written.", ["path": log.path]),
      facts: facts + [("writable", .flag(true))])
  }
}
