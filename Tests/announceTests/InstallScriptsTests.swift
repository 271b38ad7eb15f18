import Foundation
import Testing

/// What `make install` says on a distribution without apt: `scripts/setup` checks
/// everything building needs before anything is built or installed, and names all that is
/// missing in one line, without a package manager's command; `scripts/build-catalogs`
/// names apt-get only where there is one. Each script runs with a `PATH` of its own
/// folder, which holds only the tools the case gives it.
@Suite struct InstallScriptsTests {
  /// A folder of its own, with a `bin` that becomes the scripts' whole `PATH`.
  final class Sandbox {
    let folder: URL
    var bin: URL { folder.appendingPathComponent("bin") }

    init() throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "announce-install-\(UUID().uuidString)")
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Where the test process finds `tool` on its own `PATH`.
    static func found(_ tool: String) throws -> String {
      let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
      let found = path.split(separator: ":").map { "\($0)/\(tool)" }.first {
        FileManager.default.isExecutableFile(atPath: $0)
      }
      return try #require(found, "\(tool) is not on the tests' PATH")
    }

    /// Puts the system's own `tools` in the sandbox's `bin`.
    func link(_ tools: [String]) throws {
      for tool in tools {
        try FileManager.default.createSymbolicLink(
          atPath: bin.appendingPathComponent(tool).path, withDestinationPath: try Self.found(tool))
      }
    }

    /// Puts a stand-in for `tool` in the sandbox's `bin` that runs `script`.
    func fake(_ tool: String, _ script: String) throws {
      let file = bin.appendingPathComponent(tool)
      try "#!\(try Self.found("bash"))\n\(script)\n".write(to: file, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }

    /// Runs the package's `script` with bash, with `arguments`, and the sandbox's `bin`
    /// as its whole `PATH`: its status and standard error.
    func run(
      _ script: String, _ arguments: [String] = []
    ) throws -> (status: Int32, error: String, output: String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try Self.found("bash"))
      process.arguments = [PackageFile.root.appendingPathComponent(script).path] + arguments
      process.environment = ["PATH": bin.path, "HOME": folder.path, "TMPDIR": folder.path]
      process.currentDirectoryURL = folder
      // Standard output goes to a file, so that neither pipe can fill while the other is read.
      let outputFile = folder.appendingPathComponent("stdout")
      FileManager.default.createFile(atPath: outputFile.path, contents: nil)
      let output = try FileHandle(forWritingTo: outputFile)
      defer { try? output.close() }
      let error = Pipe()
      process.standardError = error
      process.standardOutput = output
      try process.run()
      let data = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let printed = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
      return (process.terminationStatus, String(decoding: data, as: UTF8.self), printed)
    }
  }

  /// What a case of another distribution has: the tools that are there, and those the
  /// line must name as missing.
  struct Case: Sendable, CustomTestStringConvertible {
    var present: [String]
    var named: [String]
    var testDescription: String { "with \(present.joined(separator: ", ")), names \(named)" }
  }

  /// Without Swift, setup goes on to check the rest, so that one line names everything.
  static let cases = [
    Case(present: ["swift", "make", "git", "pkg-config"], named: ["msgfmt"]),
    Case(present: ["make", "pkg-config"], named: ["Swift 6", "git", "msgfmt"]),
  ]

  @Test(arguments: cases)
  func setupOnAnotherDistributionNamesAllThatIsMissingAndInstallsNothing(given: Case) throws {
    let sandbox = try Sandbox()
    try sandbox.link(["sed", "head"])
    let fakes = [
      "swift": "echo 'Swift version 6.0.3 (swift-6.0.3-RELEASE)'", "make": "exit 0", "git": "exit 0",
      "pkg-config": "exit 0",
    ]
    for tool in given.present { try sandbox.fake(tool, try #require(fakes[tool])) }
    let (status, error, _) = try sandbox.run("scripts/setup")
    #expect(status == 1)
    let lines = error.split(separator: "\n")
    #expect(lines.count == 1, "more than one line on standard error: \(error)")
    for tool in given.named {
      #expect(error.contains(tool), "the line does not name \(tool): \(error)")
    }
    #expect(!error.contains("apt"), "names apt on a system without it: \(error)")
    #expect(error.contains("package manager"), "does not say how to install: \(error)")
  }

  @Test func buildCatalogsWithoutMsgfmtNamesNoAptGetWhereThereIsNone() throws {
    let sandbox = try Sandbox()
    try sandbox.link(["dirname"])
    let (status, error, _) = try sandbox.run(
      "scripts/build-catalogs", [sandbox.folder.appendingPathComponent("locale").path])
    #expect(status == 69)
    #expect(error.split(separator: "\n").count == 1, "more than one line: \(error)")
    #expect(error.contains("msgfmt") && error.contains("gettext"), "does not name what is missing: \(error)")
    #expect(!error.contains("apt"), "names apt-get where there is none: \(error)")
  }

  /// `make deb` leaves one package in its folder, so that the README's
  /// `sudo apt install ./announce_*.deb` names only the new one. The Debian tools are
  /// stand-ins here: what is checked is the folder, not the package.
  @Test func buildDebLeavesOnlyTheNewPackageInItsFolder() throws {
    let sandbox = try Sandbox()
    try sandbox.link([
      "dirname", "sed", "mktemp", "chmod", "install", "gzip", "cat", "find", "sort", "xargs", "md5sum", "du",
      "cut",
      "mkdir", "grep", "rm", "mv", "bash",
    ])
    try sandbox.fake("strip", "exit 0")
    try sandbox.fake("readelf", "exit 0")
    try sandbox.fake("dpkg", "echo amd64")
    try sandbox.fake("dpkg-shlibdeps", "echo 'shlibs:Depends=libc6 (>= 2.34)'")
    try sandbox.fake("dpkg-deb", "touch \"${@: -1}\"")
    try sandbox.link(["touch"])
    try sandbox.fake("msgfmt", "while (($#)); do [[ $1 == -o ]] && : >\"$2\"; shift; done")
    try sandbox.fake("announce", "echo '# completion'")
    let debs = sandbox.folder.appendingPathComponent("debs")
    try FileManager.default.createDirectory(at: debs, withIntermediateDirectories: true)
    for name in ["announce_0.0.1-1_amd64.deb", "announce_0.0.2-1_arm64.deb", "other_1.0_amd64.deb"] {
      FileManager.default.createFile(
        atPath: debs.appendingPathComponent(name).path, contents: Data("old".utf8))
    }
    let (status, error, output) = try sandbox.run(
      "scripts/build-deb", [sandbox.bin.appendingPathComponent("announce").path, debs.path])
    #expect(status == 0, "scripts/build-deb failed: \(error)")
    let built = URL(fileURLWithPath: output.trimmingCharacters(in: .whitespacesAndNewlines)).lastPathComponent
    #expect(built.hasPrefix("announce_") && built.hasSuffix("_amd64.deb"), "printed \(output)")
    let left = try FileManager.default.contentsOfDirectory(atPath: debs.path).sorted()
    #expect(left == [built, "other_1.0_amd64.deb"].sorted())
    #expect(error.split(separator: "\n").count == 2, "one line for each package removed: \(error)")
  }
}
