import ArgumentParser

/// The floor under announce's start-up: a command on swift-argument-parser that does nothing,
/// linked as `make install` links announce (static Swift runtime, FoundationEssentials through
/// ArgumentParser). `bench/run` times its `--version` and peak RSS beside announce's, so the
/// part of the lean-binary goals that no option or code of ours can reach is measured, not
/// guessed.
@main
struct ParserFloor: AsyncParsableCommand {
  static let configuration = CommandConfiguration(version: "0.0.0")

  @Option(help: "A number, to parse as announce parses its own.") var rate: Int?
  @Flag(help: "A flag.") var quiet = false
  @Argument(help: "Texts.") var texts: [String] = []

  func run() async throws { print(texts.count) }
}
