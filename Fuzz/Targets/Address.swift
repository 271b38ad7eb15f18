@testable import AnnouncerCore
@testable import announce

/// `SPEECHD_ADDRESS` and `--address`, read by ``SpeechdAddress/parse(_:)`` and
/// ``SpeechdAddress/resolve(_:environment:)``.
///
/// - An address read, written again in `SPEECHD_ADDRESS` syntax, reads back the same.
/// - A TCP port is from 1 to 65535, and a host has no colon.
/// - Every sentence about the address, printed or logged, is one line: the refusal of a
///   text that is no address, and each failure to reach one that is.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAddress(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = inputText(data, size)
  let environment = ["XDG_RUNTIME_DIR": "/fuzz-runtime"]
  let sentences: [String]
  switch Result(catching: { () throws(SpeechdConnectError) in
    try SpeechdAddress.resolve(text, environment: environment)
  }) {
  case .failure(let refusal):
    require(SpeechdAddress.parse(text) == nil, "resolve refuses only what parse refuses")
    sentences = [refusal.description, refusal.printedSentence]
  case .success(let address):
    require(address == SpeechdAddress.parse(text), "resolve reads what parse reads")
    let written: String
    switch address {
    case .unixSocket(let path, let isUserDefault):
      require(!isUserDefault, "an address given is never the user's default")
      require(!path.isEmpty, "a socket has a path")
      written = "unix_socket:" + path
    case .inetSocket(let host, let port):
      require((1...65535).contains(port), "a port is from 1 to 65535: \(port)")
      require(!host.contains(":"), "a host has no colon")
      written = "inet_socket:\(host):\(port)"
    }
    require(SpeechdAddress.parse(written) == address, "\(written.debugDescription) reads back as \(address)")
    let failures: [SpeechdConnectError] = [
      .unreachable(address, detail: "Error: Can't connect to unix socket: No such file or directory."),
      .notAnswering(address, within: .seconds(2)),
      .notAccepting(address, within: .milliseconds(1500)),
      .nothingForwarded(forwardedPath: "/fuzz-runtime/forwarded.sock", local: address, detail: "refused"),
    ]
    sentences = failures.flatMap { [$0.description, $0.printedSentence] } + [AddressCheck.printed(address)]
  }
  for sentence in sentences {
    require(isOneLine(sentence), "a sentence about an address is one line: \(sentence.debugDescription)")
  }
  return 0
}
