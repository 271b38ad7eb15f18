/// What FoundationEssentials' `JSONDecoder` does not tell about a JSON input line, found
/// in one pass over its bytes before the decoder reads it:
///
/// - a key of the object given twice, which the decoder accepts, keeping the first
///   value (`{"text":"a","text":"b"}` spoke "a");
/// - nesting deeper than the decoder takes (512 levels), which it reports only as
///   data that is not valid JSON;
/// - a `\u` escape that is half of a UTF-16 surrogate pair without its other half,
///   which names no character and which the decoder reports in the same words.
///
/// Keys are compared as Swift compares strings, after their escapes are read, so keys
/// that are canonically equivalent are one key, as they are in the decoded dictionary.
/// It checks nothing else: on anything malformed it stops without a finding, and the
/// decoder rejects the line.
enum JSONLineCheck {
  /// The deepest nesting `JSONDecoder` accepts: 512 levels, the object itself being
  /// the first (measured with Swift 6.3.1: 512 decodes, 513 is "not valid JSON").
  static let maxDepth = 512

  /// The first problem of these in `line`, as a reason for rejecting it.
  static func problem(in line: String) -> LineError? {
    var line = line
    return line.withUTF8 { bytes in
      var scanner = Scanner(bytes: bytes)
      return scanner.problem()
    }
  }

  /// A key as a reason quotes it, between quotes: its first 40 characters, as JSON writes
  /// them. A key of a megabyte was quoted whole, and every rejected line's reason was kept
  /// for the log (issue #46); a carriage return in a key made the reason two lines (the fuzz
  /// target `json-line` found it).
  static func shown(_ key: String) -> String { JSONValue.escaped(key) }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    /// Whether the outermost value is an object, whose keys are checked.
    var outerIsObject = false
    /// Whether the outermost value has begun; a second one makes the line malformed.
    var outerBegan = false
    /// Whether the next string at depth 1 is a key of the outer object.
    var expectsKey = false
    /// The outer object's key whose value is being read.
    var currentKey: String?
    var keys: Set<String> = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func problem() -> LineError? {
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          if depth > JSONLineCheck.maxDepth {
            return LineError(
              localized(
                "it is nested too deeply, more than {count} levels; give each field a plain value, as in {\"text\": \"Saved\"}",
                ["count": String(JSONLineCheck.maxDepth)]))
          }
          if depth == 1 {
            if outerBegan { return nil }
            outerBegan = true
            outerIsObject = bytes[index] == UInt8(ascii: "{")
            expectsKey = outerIsObject
          }
          index += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          index += 1
        case UInt8(ascii: ",") where depth == 1 && outerIsObject:
          expectsKey = true
          currentKey = nil
          index += 1
        case UInt8(ascii: "\""):
          let isKey = depth == 1 && outerIsObject && expectsKey
          let text: String
          switch scanString(keepingText: isKey) {
          case .malformed: return nil
          case .loneSurrogate(let escape):
            let place =
              isKey
              ? localized("a key")
              : currentKey.map { localized("the \"{key}\" field", ["key": JSONLineCheck.shown($0)]) }
                ?? localized("a string")
            // TRANSLATORS: {place} is "a key", "a string" or "the "text" field"; {escape} is such as \ud800.
            return LineError(
              localized(
                "{place} has {escape}, half of a UTF-16 surrogate pair, which is no character; write the character itself, or both halves of its pair",
                ["place": place, "escape": escape]))
          case .scanned(let scanned): text = scanned
          }
          if isKey {
            guard keys.insert(text).inserted else {
              return LineError(
                localized(
                  "it has the key {key} twice, so its value is ambiguous; give each key once",
                  ["key": JSONValue.quoted(text)]))
            }
            currentKey = text
            expectsKey = false
          }
        default:
          index += 1
        }
      }
      return nil
    }

    enum StringResult {
      /// The string's text, decoded only when asked for; empty otherwise.
      case scanned(String)
      case loneSurrogate(String)
      case malformed
    }

    /// Reads the string that starts at `index`, leaving `index` after its closing quote;
    /// decodes its escapes into `text` only when `keepingText`.
    mutating func scanString(keepingText: Bool) -> StringResult {
      var text: [UInt8] = []
      index += 1
      var runStart = index
      /// A high surrogate waiting for its low half, with how it was written.
      var pendingHigh: (value: UInt32, escape: String)?
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          if let pendingHigh { return .loneSurrogate(pendingHigh.escape) }
          if keepingText { text.append(contentsOf: bytes[runStart..<index]) }
          index += 1
          return .scanned(String(decoding: text, as: UTF8.self))
        }
        guard byte == UInt8(ascii: "\\") else {
          if let pendingHigh { return .loneSurrogate(pendingHigh.escape) }
          index += 1
          continue
        }
        if keepingText { text.append(contentsOf: bytes[runStart..<index]) }
        guard index + 1 < bytes.count else { return .malformed }
        let escaped = bytes[index + 1]
        if escaped != UInt8(ascii: "u") {
          if let pendingHigh { return .loneSurrogate(pendingHigh.escape) }
          guard let simple = Self.simpleEscapes[escaped] else { return .malformed }
          if keepingText { text.append(simple) }
          index += 2
          runStart = index
          continue
        }
        guard index + 6 <= bytes.count,
          let unit = UInt32(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
        else { return .malformed }
        let escape = String(decoding: bytes[index..<(index + 6)], as: UTF8.self)
        index += 6
        runStart = index
        switch unit {
        case 0xD800...0xDBFF:
          if let pendingHigh { return .loneSurrogate(pendingHigh.escape) }
          pendingHigh = (unit, escape)
        case 0xDC00...0xDFFF:
          guard let high = pendingHigh else { return .loneSurrogate(escape) }
          pendingHigh = nil
          let scalar = 0x10000 + ((high.value - 0xD800) << 10) + (unit - 0xDC00)
          if keepingText { Self.append(scalar, to: &text) }
        default:
          if let pendingHigh { return .loneSurrogate(pendingHigh.escape) }
          if keepingText { Self.append(unit, to: &text) }
        }
      }
      return .malformed
    }

    /// Appends the UTF-8 bytes of the character `scalar` names.
    static func append(_ scalar: UInt32, to text: inout [UInt8]) {
      guard let character = Unicode.Scalar(scalar) else { return }
      text.append(contentsOf: String(Character(character)).utf8)
    }

    /// The escapes of one letter and what each stands for.
    static let simpleEscapes: [UInt8: UInt8] = [
      UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"),
      UInt8(ascii: "/"): UInt8(ascii: "/"), UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
      UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]
  }
}
