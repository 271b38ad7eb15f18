/// What is wrong with a document given as SSML, as ``SSMLValidator`` finds it; ``phrase``
/// says it in English, and a caller may word it in another language.
package enum SSMLProblem: Sendable, Equatable {
  /// More than ``SSMLValidator/maximumBytes``.
  case tooLarge(bytes: Int)
  /// No root element.
  case noSpeakElement
  /// A root element other than `<speak>`, with this qualified name.
  case wrongRoot(String)
  /// Deeper than libxml2's bound without `XML_PARSE_HUGE`.
  case nestedTooDeeply
  /// A name longer than libxml2's bound.
  case nameTooLong
  /// Entities that refer to themselves or expand too far.
  case entityLoop
  /// Not well-formed XML, first found at this line and column.
  case notWellFormed(line: Int, column: Int, Reason)

  /// Why a document is not well-formed XML.
  package enum Reason: Sendable, Equatable, CaseIterable {
    case noElement, unclosedElement, undefinedEntity, malformedAttribute, malformedName, unclosedTag
    case mismatchedClosingTag, textAfterRoot, forbiddenCharacter, misplacedCDATAEnd, other

    /// The reason in English, after "is not well-formed XML at line 1, column 2: ".
    package var phrase: String {
      switch self {
      case .noElement: "it does not start with an element"
      case .unclosedElement: "it ends before every element is closed"
      case .undefinedEntity: "it uses an undefined entity, perhaps a bare ampersand that should be escaped"
      case .malformedAttribute: "an attribute is malformed"
      case .malformedName:
        "a name is malformed, perhaps a bare ampersand or less-than sign that should be escaped"
      case .unclosedTag: "a tag is not closed with >"
      case .mismatchedClosingTag: "a closing tag does not match its opening tag"
      case .textAfterRoot: "there is text after the root element"
      case .forbiddenCharacter: "it contains a character XML does not allow, such as a control character"
      case .misplacedCDATAEnd: "it contains ]]> outside a CDATA section"
      case .other: "it is not well-formed XML"
      }
    }
  }

  /// The problem as a phrase in English, such as "the SSML has no <speak> element".
  package var phrase: String {
    switch self {
    case .tooLarge(let size):
      "the SSML is \(size) bytes, more than the \(SSMLValidator.maximumBytes) bytes (1 MiB) one document may have"
    case .noSpeakElement: "the SSML has no <speak> element"
    case .wrongRoot(let root): "the SSML must have <speak> as its root element, not <\(root)>"
    case .nestedTooDeeply:
      "the SSML nests elements more than \(SSMLValidator.maximumDepth) deep, the most the XML parser (libxml2) accepts"
    case .nameTooLong:
      "the SSML has a name longer than \(SSMLValidator.maximumNameBytes) bytes, the most the XML parser (libxml2) accepts"
    case .entityLoop:
      "the SSML defines entities that refer to themselves or expand too far, which the XML parser (libxml2) refuses"
    case .notWellFormed(let line, let column, let reason):
      "the SSML is not well-formed XML at line \(line), column \(column): \(reason.phrase)"
    }
  }
}
