import Foundation
import Testing

@testable import announce

/// The signals that end a run cleanly are one list, and the documentation shows that list.
@Suite struct HandledSignalTests {
  @Test func hangUpInterruptAndTerminateExitWithTheStatusesAShellReports() {
    #expect(HandledSignal.allCases.map(\.name) == ["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM"])
    #expect(HandledSignal.allCases.map { ExitStatus.of(.interrupted($0)) } == [129, 130, 131, 143])
  }

  @Test func theManPageListsEverySignalWithItsStatusAndNoOther() throws {
    let page = try PackageFile.text("man/announce.1")
    let afterHeading = page.components(separatedBy: "\n.Sh SIGNALS\n")
    try #require(afterHeading.count == 2, "man/announce.1 has no SIGNALS section")
    let section = afterHeading[1].components(separatedBy: "\n.Sh ")[0]
    let items = section.split(separator: "\n").filter { $0.hasPrefix(".It ") }.map(String.init)
    #expect(items == HandledSignal.allCases.map { ".It \($0.name)" }, "\(items)")
    for signal in HandledSignal.allCases {
      #expect(
        section.contains(".It \(signal.name)\nExit status \(ExitStatus.of(.interrupted(signal))).\n"),
        "\(signal.name)")
    }
    let statuses = HandledSignal.allCases.map { String(ExitStatus.of(.interrupted($0))) }.joined(
      separator: ", ")
    #expect(page.contains("\n.It \(statuses)\n"), "EXIT STATUS has no item for \(statuses)")
  }

  @Test func theReadmesExitStatusListHasTheSameItem() throws {
    let readme = try PackageFile.text("README.md")
    let statuses = HandledSignal.allCases.map { String(ExitStatus.of(.interrupted($0))) }.joined(
      separator: ", ")
    let names = HandledSignal.allCases.map(\.name)
    let row =
      "- \(statuses): interrupted by \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")"
    #expect(readme.contains(row), "\(row)")
  }
}
