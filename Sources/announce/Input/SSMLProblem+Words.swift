import AnnouncerCore

extension SSMLProblem {
  /// ``phrase`` in the language of the locale, for a line printed for a person; the
  /// English is the core's word for word (`SpeechdConnectWordsTests` holds them to it), and the
  /// outcome log and `--json` keep it.
  var printedPhrase: String {
    EnglishOriginals.remembering(localizedPhrase, english: phrase)
  }

  private var localizedPhrase: String {
    switch self {
    case .tooLarge(let size):
      return localized(
        "the SSML is {size} bytes, more than the {limit} bytes (1 MiB) one document may have",
        ["size": String(size), "limit": String(SSMLValidator.maximumBytes)])
    case .noSpeakElement:
      return localized("the SSML has no <speak> element")
    case .wrongRoot(let root):
      return localized("the SSML must have <speak> as its root element, not <{root}>", ["root": root])
    case .nestedTooDeeply:
      return localized(
        "the SSML nests elements more than {count} deep, the most the XML parser (libxml2) accepts",
        ["count": String(SSMLValidator.maximumDepth)])
    case .nameTooLong:
      return localized(
        "the SSML has a name longer than {count} bytes, the most the XML parser (libxml2) accepts",
        ["count": String(SSMLValidator.maximumNameBytes)])
    case .entityLoop:
      return localized(
        "the SSML defines entities that refer to themselves or expand too far, which the XML parser (libxml2) refuses"
      )
    case .notWellFormed(let line, let column, let reason):
      return localized(
        "the SSML is not well-formed XML at line {line}, column {column}: {reason}",
        ["line": String(line), "column": String(column), "reason": reason.printedPhrase])
    }
  }
}

extension SSMLProblem.Reason {
  /// ``phrase`` in the language of the locale.
  var printedPhrase: String {
    let text: String
    switch self {
    case .noElement: text = localized("it does not start with an element")
    case .unclosedElement: text = localized("it ends before every element is closed")
    case .undefinedEntity:
      text = localized("it uses an undefined entity, perhaps a bare ampersand that should be escaped")
    case .malformedAttribute: text = localized("an attribute is malformed")
    case .malformedName:
      text = localized(
        "a name is malformed, perhaps a bare ampersand or less-than sign that should be escaped")
    case .unclosedTag: text = localized("a tag is not closed with >")
    case .mismatchedClosingTag: text = localized("a closing tag does not match its opening tag")
    case .textAfterRoot: text = localized("there is text after the root element")
    case .forbiddenCharacter:
      text = localized("it contains a character XML does not allow, such as a control character")
    case .misplacedCDATAEnd: text = localized("it contains ]]> outside a CDATA section")
    case .other: text = localized("it is not well-formed XML")
    }
    EnglishOriginals.remember(text, english: phrase)
    return text
  }
}
