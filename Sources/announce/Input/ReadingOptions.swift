import AnnouncerCore
import ArgumentParser

/// The options that say how a text is read: as Markdown, from which JSON field, from
/// which source, and whether a long one is said whole.
struct ReadingOptions: ParsableArguments {
  @Flag(
    name: .customLong("markdown"),
    help:
      "Read each text as Markdown and say it as prose: marks left out, a link by its text, code blocks and tables by their size."
  )
  var markdown = false

  @Option(
    name: .customLong("text-field"),
    help: ArgumentHelp(
      "The field of JSON input that holds the text, such as message; a top-level field.", valueName: "name"))
  var textField: String?

  @Option(
    name: .customLong("source"),
    help: ArgumentHelp(
      "Where the text came from, said before it, such as the project's name.", valueName: "name"))
  var source: String?

  @Option(
    name: .customLong("source-field"),
    help: ArgumentHelp(
      "The field of JSON input that names where the text came from, such as cwd; a path is said by its last folder.",
      valueName: "name"))
  var sourceField: String?

  @Flag(
    name: .customLong("full-text"),
    help: "Say a long Markdown text or JSON document whole, instead of up to its first sentences.")
  var fullText = false

  /// How the texts of `format` are read with these options; throws a usage error for a
  /// field named for input that is not JSON, or for Markdown without cmark-gfm.
  func reading(format: InputOptions.Format) throws -> TextReading {
    let reading = TextReading(
      format: format, textField: textField ?? "text", source: source, sourceField: sourceField,
      markdown: markdown, fullText: fullText)
    if (textField != nil || sourceField != nil) && !reading.readsJSON {
      throw ValidationError(
        localized(
          "--text-field and --source-field name fields of JSON input; add --input json or --input json-document."
        ))
    }
    if markdown && !CmarkDocument.isAvailable {
      throw ValidationError(
        localized(
          "--markdown needs cmark-gfm, GitHub's Markdown parser, which is not installed; install the package libcmark-gfm-extensions0.29.0.gfm.6 (Debian 12) or libcmark-gfm-extensions0.29.0.gfm.13 (Debian 13)."
        ))
    }
    return reading
  }
}
