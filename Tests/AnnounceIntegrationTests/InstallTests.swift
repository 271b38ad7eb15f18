import Foundation
import Testing

extension SpeakingTests {
  /// `make install` into a temporary PREFIX, then the installed binary run with no Swift
  /// toolchain anywhere in its environment. It is nested in ``SpeakingTests`` so that its
  /// release build does not run beside the timing-sensitive speech tests.
  @Suite struct Install: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    @Test(.timeLimit(.minutes(10))) func installsIntoAPrefixAndRunsWithoutTheSwiftToolchain() throws {
      let prefix = NSTemporaryDirectory() + "announce-install-\(getpid())"
      defer { try? FileManager.default.removeItem(atPath: prefix) }
      let root = TestStack.packageRoot.path
      let install = try Command.run(
        "/usr/bin/make", ["-C", root, "install", "PREFIX=\(prefix)"], timeout: 540)
      #expect(install.status == 0, "\(install.standardError)")

      let binary = prefix + "/bin/announce"
      for path in [
        binary, prefix + "/share/man/man1/announce.1",
        prefix + "/share/bash-completion/completions/announce",
        prefix + "/share/zsh/site-functions/_announce",
        prefix + "/share/fish/vendor_completions.d/announce.fish",
        prefix + "/share/locale/de/LC_MESSAGES/announce.mo",
      ] {
        #expect(FileManager.default.fileExists(atPath: path), "\(path) was not installed")
      }

      let libraries = try Command.run("/usr/bin/ldd", [binary])
      #expect(!libraries.standardOutput.contains("libswift"), "\(libraries.standardOutput)")
      #expect(!libraries.standardOutput.contains("/opt/swift"))

      // No toolchain on PATH or LD_LIBRARY_PATH: only the system's own directories.
      let bare = ["PATH": "/usr/bin:/bin", "SPEECHD_ADDRESS": stack.address, "HOME": prefix]
      let version = try Command.run(binary, ["--version"], environment: bare)
      #expect(version.status == 0)
      #expect(!version.standardOutput.isEmpty)
      let spoken = try Command.run(binary, ["Installed"], environment: bare)
      #expect(spoken.status == 0, "\(spoken.standardError)")
      // The installed command finds its catalogs under the PREFIX it was installed in.
      let german = try TestLanguages.environment(bare, locale: "de_DE.UTF-8")
      let replay = try Command.run(binary, ["replay"], environment: german)
      #expect(replay.standardOutput.hasPrefix("Seit "), "\(replay.standardOutput)")

      let uninstall = try Command.run("/usr/bin/make", ["-C", root, "uninstall", "PREFIX=\(prefix)"])
      #expect(uninstall.status == 0)
      #expect(!FileManager.default.fileExists(atPath: binary))
      #expect(!FileManager.default.fileExists(atPath: prefix + "/share/locale/de/LC_MESSAGES/announce.mo"))
    }
  }
}
