/// The words of the summary that flood control speaks for announcements it skipped,
/// such as "12 messages skipped".
///
/// The library speaks English; a program that speaks another language gives its own
/// sentences, so that the library holds no policy about languages or catalogs.
public struct SummaryWording: Sendable {
  /// The language the summary is spoken in, such as `de`; `nil` speaks it with the
  /// voice of the announcement it comes before.
  public var language: String?
  /// The sentence for this many skipped announcements.
  public var sentence: @Sendable (_ skipped: Int) -> String

  /// Words in `language` made by `sentence`.
  public init(language: String? = nil, sentence: @escaping @Sendable (_ skipped: Int) -> String) {
    self.language = language
    self.sentence = sentence
  }

  /// "1 message skipped", "12 messages skipped".
  public static let english = SummaryWording { $0 == 1 ? "1 message skipped" : "\($0) messages skipped" }
}
