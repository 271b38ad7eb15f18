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

  /// The mode asked for; the check applies to `on` and `only`.
  var mode: BrailleMode
  /// Connects and reads the display's size: its address and cells, or why not.
  var probe: @Sendable () async -> Result<(address: String, cells: Int), BrailleUnavailable>

  /// The mode `ANNOUNCE_BRAILLE` asks for; off when it is not valid (the command says so).
  static func mode(environment: [String: String]) -> BrailleMode {
    (try? BrailleOptions.mode(environment: environment)) ?? .off
  }

  /// The check of brltty at the environment's `BRLAPI_HOST`.
  init(mode: BrailleMode, environment: [String: String]) {
    self.mode = mode
    probe = { await Self.probeBrltty(environment: environment) }
  }

  init(
    mode: BrailleMode,
    probe: @escaping @Sendable () async -> Result<(address: String, cells: Int), BrailleUnavailable>
  ) {
    self.mode = mode
    self.probe = probe
  }

  func run() async -> DoctorLine {
    let asked: DoctorFact = .text(mode.rawValue)
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
        check: "braille", finding: mode == .only ? .speechUnavailable : .somethingElseBroken,
        said: unavailable.printedMessage,
        facts: [("mode", asked), ("problem", .text(unavailable.failure.rawValue))])
    }
  }

  /// The line when the check did not end `within` its share of doctor's time: brltty
  /// accepted the connection but stopped answering.
  func notAnswering(within bound: Duration) -> DoctorLine {
    DoctorLine(
      check: "braille", finding: mode == .only ? .speechUnavailable : .somethingElseBroken,
      said: localized(
        "brltty did not answer within {seconds}, so it is probably stopped or frozen; restart it, or set ANNOUNCE_BRAILLE=off.",
        ["seconds": DoctorLine.printedSeconds(bound)]),
      facts: [("mode", .text(mode.rawValue)), ("problem", .text("not-answering"))])
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
