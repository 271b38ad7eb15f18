import AnnouncerCore
import ArgumentParser
import FoundationEssentials
import Glibc

/// `announce init ssh HOST`: prints the `~/.ssh/config` lines that forward this user's
/// speech-dispatcher to HOST, where announce finds it without any setting.
struct SSHInit: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "announce init ssh",
    abstract: "Print the ~/.ssh/config lines that make announce on HOST speak on this machine.",
    discussion: """
      Run it on your own machine and append the output to ~/.ssh/config: announce init ssh \
      HOST >> ~/.ssh/config. Every later "ssh HOST" forwards your speech-dispatcher to \
      /run/user/UID/announce-speechd.sock on HOST, where announce looks first when it runs \
      under SSH. Give --remote-uid when your user id on HOST (id -u there) differs from this one.
      """)

  /// The word after `init` that chooses this command.
  static let name = "ssh"

  @Argument(help: "The host, as you give it to ssh; a pattern such as \"*.lan\" works too.")
  var host: String

  @Option(help: ArgumentHelp("Your numeric user id on HOST; by default, the one here.", valueName: "uid"))
  var remoteUID: UInt32?

  func validate() throws {
    if host.isEmpty || host.contains(where: { $0.isWhitespace || $0 == "\"" }) {
      throw ValidationError(localized("HOST must be one host name or pattern, without spaces or quotes."))
    }
  }

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let local: SpeechdAddress
    do {
      local = try SpeechdAddress.resolve(nil, environment: environment)
    } catch {
      throw ValidationError(error.printedSentence)
    }
    print(
      SSHConfigLines.text(
        host: host, remotePath: ForwardedSpeechdSocket.serverPath(userID: remoteUID ?? getuid()),
        local: local), terminator: "")
  }
}

/// The text `announce init ssh` prints.
enum SSHConfigLines {
  /// The lines for `host`, forwarding `local` (this user's speech-dispatcher) to `remotePath`.
  ///
  /// `StreamLocalBindUnlink` is named in a comment, not set: for a `RemoteForward` only the
  /// server's own sshd_config setting counts (measured with OpenSSH 9.2: set in the client,
  /// a leftover socket still made the next forward fail). Without it on the server,
  /// announce removes a dead forward it finds.
  static func text(host: String, remotePath: String, local: SpeechdAddress) -> String {
    let target: String
    switch local {
    case .unixSocket(let path, _): target = path
    case .inetSocket(let name, let port): target = "\(name):\(port)"
    }
    return """
      # announce: speech from \(host) is heard on this machine. From: announce init ssh \(host)
      # "StreamLocalBindUnlink yes" in the sshd_config of \(host) lets a login replace a forward an old one left.
      Host \(host)
          RemoteForward \(remotePath) \(target)

      """
  }
}
