// Internal: importers of AnnouncerCore never need libxml2's names. (They still load the
// module, as AnnouncerCore is built without library evolution: Sources/CLibXML2/shim.h
// keeps the system's ICU header, which clashed with Foundation's, out of it.)
internal import CLibXML2

/// Checks that user-supplied SSML is a well-formed XML document with a `<speak>` root.
///
/// The document is parsed by libxml2 with its default safety limits (no network, no
/// external DTD, entity expansion bounded), and is first held to ``maximumBytes``.
package enum SSMLValidator {
  /// The largest document accepted, in bytes of UTF-8: 1 MiB, about 150,000 words or
  /// many hours of speech. libxml2 refuses a single text of more than 10,000,000 bytes
  /// unless its protections against entity-expansion bombs are switched off
  /// (`XML_PARSE_HUGE`); holding documents well below that keeps the protections and
  /// makes the limit one plain number to state.
  package static let maximumBytes = 1 << 20

  /// libxml2's bound on how deeply elements nest, without `XML_PARSE_HUGE`.
  package static let maximumDepth = 256

  /// libxml2's bound on the length of one name, in bytes, without `XML_PARSE_HUGE`.
  package static let maximumNameBytes = 50_000

  /// Returns `nil` when `document` is acceptable, or a phrase naming the problem, in English.
  package static func problem(in document: String) -> String? {
    check(document)?.phrase
  }

  /// Returns `nil` when `document` is acceptable, or what is wrong with it.
  package static func check(_ document: String) -> SSMLProblem? {
    let size = document.utf8.count
    guard size <= maximumBytes else { return .tooLarge(bytes: size) }
    let outcome = LibXML2Parse(document)
    if let error = outcome.firstError { return describe(error) }
    guard let root = outcome.root else { return .noSpeakElement }
    guard root == "speak" else { return .wrongRoot(root) }
    return nil
  }

  private static func describe(_ error: LibXML2Parse.Failure) -> SSMLProblem {
    switch Int(error.code) {
    case Int(XML_ERR_INTERNAL_ERROR.rawValue) where error.message.contains("depth"): .nestedTooDeeply
    case Int(XML_ERR_NAME_TOO_LONG.rawValue): .nameTooLong
    case Int(XML_ERR_ENTITY_LOOP.rawValue): .entityLoop
    default: .notWellFormed(line: Int(error.line), column: Int(error.column), reason(error.code))
    }
  }

  private static func reason(_ code: Int32) -> SSMLProblem.Reason {
    switch xmlParserErrors(UInt32(bitPattern: code)) {
    case XML_ERR_DOCUMENT_EMPTY: .noElement
    case XML_ERR_TAG_NOT_FINISHED, XML_ERR_COMMENT_NOT_FINISHED, XML_ERR_CDATA_NOT_FINISHED: .unclosedElement
    case XML_ERR_UNDECLARED_ENTITY, XML_WAR_UNDECLARED_ENTITY: .undefinedEntity
    case XML_ERR_LT_IN_ATTRIBUTE, XML_ERR_ATTRIBUTE_NOT_STARTED, XML_ERR_ATTRIBUTE_NOT_FINISHED,
      XML_ERR_ATTRIBUTE_WITHOUT_VALUE, XML_ERR_ATTRIBUTE_REDEFINED:
      .malformedAttribute
    case XML_ERR_NAME_REQUIRED, XML_ERR_ENTITYREF_SEMICOL_MISSING: .malformedName
    case XML_ERR_GT_REQUIRED: .unclosedTag
    case XML_ERR_TAG_NAME_MISMATCH, XML_ERR_LTSLASH_REQUIRED: .mismatchedClosingTag
    case XML_ERR_DOCUMENT_END: .textAfterRoot
    case XML_ERR_INVALID_CHAR: .forbiddenCharacter
    case XML_ERR_MISPLACED_CDATA_END: .misplacedCDATAEnd
    default: .other
    }
  }
}

/// One parse of a document by libxml2, keeping only what the validator needs: the first
/// error (later ones are consequences of it; warnings are ignored) and the qualified name of the root element.
private struct LibXML2Parse {
  struct Failure {
    var code: Int32
    var line: Int32
    var column: Int32
    var message: String
  }

  /// Collects the first error libxml2 reports; reached from C through the context.
  private final class FirstError {
    var failure: Failure?
  }

  private(set) var firstError: Failure?
  private(set) var root: String?

  /// Initialises libxml2 once, before any thread parses (its documented requirement).
  private static let initialized: Void = xmlInitParser()

  /// Errors only; no network, and nothing printed: every problem comes back as a value.
  private static let options = Int32(
    bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

  init(_ document: String) {
    _ = Self.initialized
    guard let context = xmlNewParserCtxt() else {
      firstError = Failure(code: Int32(XML_ERR_NO_MEMORY.rawValue), line: 0, column: 0, message: "")
      return
    }
    defer { xmlFreeParserCtxt(context) }
    let collector = FirstError()
    context.pointee._private = Unmanaged.passUnretained(collector).toOpaque()
    // The structured handler sees every error, where the context keeps only the last.
    // libxml2 passes the context itself as `data` (its userData defaults to the context).
    context.pointee.sax.pointee.serror = { data, error in
      guard let data, let error,
        let box = data.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private
      else { return }
      let collector = Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue()
      guard collector.failure == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
      collector.failure = Failure(
        code: error.pointee.code, line: error.pointee.line, column: error.pointee.int2,
        message: error.pointee.message.map { String(cString: $0) } ?? "")
    }
    var text = document
    let parsed = text.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { chars in
        // The bytes are UTF-8 whatever an XML declaration claims: they come from a Swift String.
        xmlCtxtReadMemory(context, chars.baseAddress, Int32(chars.count), nil, "UTF-8", Self.options)
      }
    }
    withExtendedLifetime(collector) {}
    firstError = collector.failure
    guard let parsed else {
      if firstError == nil {
        firstError = Failure(code: Int32(XML_ERR_DOCUMENT_EMPTY.rawValue), line: 1, column: 1, message: "")
      }
      return
    }
    defer { xmlFreeDoc(parsed) }
    guard let element = xmlDocGetRootElement(parsed), let name = element.pointee.name else { return }
    let local = String(cString: name)
    if let prefix = element.pointee.ns?.pointee.prefix {
      root = String(cString: prefix) + ":" + local
    } else {
      root = local
    }
  }
}
