import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Checks that user-supplied SSML is a well-formed XML document with a `<speak>` root.
public enum SSMLValidator {
  /// Returns `nil` when `document` is acceptable, or a sentence naming the problem.
  public static func problem(in document: String) -> String? {
    let parser = XMLParser(data: Data(document.utf8))
    let delegate = RootRecorder()
    parser.delegate = delegate
    // On Linux, parse() can return true for a document that ends too early; the error says so.
    guard parser.parse(), parser.parserError == nil else {
      let reason = parser.parserError.map { describe($0) } ?? "it is not well-formed XML"
      return "the SSML is not well-formed XML at line \(parser.lineNumber), column \(parser.columnNumber): \(reason)"
    }
    guard let root = delegate.root else { return "the SSML has no <speak> element" }
    guard root == "speak" else {
      return "the SSML must have <speak> as its root element, not <\(root)>"
    }
    return nil
  }

  private static func describe(_ error: any Error) -> String {
    switch (error as NSError).code {
    case 4: "it does not start with an element"
    case 5: "it ends before every element is closed"
    case 26: "it uses an undefined entity, perhaps a bare ampersand that should be escaped"
    case 38, 39, 41: "an attribute is malformed"
    case 68: "a name is malformed, perhaps a bare ampersand or less-than sign that should be escaped"
    case 73, 76: "a closing tag does not match its opening tag"
    case 85: "there is text after the root element"
    default: "it is not well-formed XML"
    }
  }

  private final class RootRecorder: NSObject, XMLParserDelegate {
    var root: String?
    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      if root == nil { root = elementName }
    }
  }
}
