import AnnouncerCore

/// The braille check, only when braille is asked for (`ANNOUNCE_BRAILLE=on` or `only`):
/// whether a braille display answers at the BrlAPI host, and with how many cells.
///
/// Without braille it is not made at all, so that doctor never loads libbrlapi for a
/// user who does not read braille. A display that does not answer is the
/// speech-unavailable finding with `only` (announce would exit 69, as without speech),
/// and something else broken with `on` (the speech goes ahead without it).
struct BrailleCheck {
  /// How long brltty may take to connect and say the display's size: its connect bound
  /// (2 s) and a little for entering and leaving tty mode.
  static let answerBound: Duration = .milliseconds(2500)

  /// The plan asked for; the check applies to one that uses braille.
  var plan: DeliveryPlan
  /// Connects and reads the display's size: its address and cells, or why not.
  var probe: @Sendable () async -> Result<(address: String, cells: Int), BrailleUnavailable>

  /// The plan `ANNOUNCE_BRAILLE` asks for; speech alone when it is not valid (the
  /// command says so).
  static func plan(environment: [String: String]) -> DeliveryPlan {
    (try? DeliveryPlan(environment: environment)) ?? .speech
  }

  /// The check of brltty at the environment's `BRLAPI_HOST`.
  init(plan: DeliveryPlan, environment: [String: String]) {
    self.plan = plan
    probe = { await Self.probeBrltty(environment: environment) }
  }

  init(
    plan: DeliveryPlan,
    probe: @escaping @Sendable () async -> Result<(address: String, cells: Int), BrailleUnavailable>
  ) {
    self.plan = plan
    self.probe = probe
  }

  /// `ANNOUNCE_BRAILLE`'s word for the plan: `on` with speech, `only` without.
  private var modeName: String { plan.uses(.speech) ? BrailleMode.on.rawValue : BrailleMode.only.rawValue }

  /// A display that does not answer: speech unavailable when braille must deliver (announce
  /// would exit 69, as without speech), something else broken when the speech goes ahead.
  private var failedFinding: DoctorFinding {
    plan.requires(.braille) ? .speechUnavailable : .somethingElseBroken
  }

  func run() async -> DoctorLine {
    let asked: DoctorFact = .text(modeName)
    switch await probe() {
    case .success(let (address, cells)):
      return DoctorLine(
        check: "braille", finding: .fine,
        said: localized(
          "A braille display of {cells} cells answers at {address}, so announcements are shown on it.",
          ["cells": String(cells), "address": address]),
        facts: [("mode", asked), ("address", .text(address)), ("cells", .number(Double(cells)))])
    case .failure(let unavailable):
      return DoctorLine(
        check: "braille", finding: failedFinding,
        said: unavailable.printedMessage,
        facts: [("mode", asked), ("problem", .text(unavailable.failure.rawValue))])
    }
  }

  /// The line when the check did not end `within` its share of doctor's time: brltty
  /// accepted the connection but stopped answering.
  func notAnswering(within bound: Duration) -> DoctorLine {
    DoctorLine(
      check: "braille", finding: failedFinding,
      said: localized(
        "brltty did not answer within {seconds}, so it is probably stopped or frozen; restart it, or set ANNOUNCE_BRAILLE=off.",
        ["seconds": DoctorLine.printedSeconds(bound)]),
      facts: [("mode", .text(modeName)), ("problem", .text("not-answering"))])
  }

  /// Connects to brltty, enters tty mode for its size without writing anything, and
  /// leaves: the display does not change.
  static func probeBrltty(
    environment: [String: String]
  ) async -> Result<(address: String, cells: Int), BrailleUnavailable> {
    let display: BrlapiDisplay
    switch await BrlapiDisplay.connect(environment: environment) {
    case .success(let connected): display = connected
    case .failure(let error): return .failure(error)
    }
    let entered = await display.enterTtyMode()
    if case .success = entered { await display.leaveTtyMode() }
    await display.close()
    return entered.map { (display.address, $0) }
  }
}
