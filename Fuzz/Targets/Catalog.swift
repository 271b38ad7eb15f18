@testable import announce

/// A compiled catalog (``CatalogFile``) and its plural rule (``PluralRule``): announce
/// reads `announce.mo` itself when glibc will not, and a file can be corrupt or crafted.
///
/// The input is read three ways:
/// - as a catalog's bytes: reading it and looking up its messages and forms never traps;
/// - as a `Plural-Forms` header: its rule, for counts from `Int.min` to `Int.max`, never traps;
/// - as messages (split at NUL bytes into originals and translations, alternately) that a
///   small writer here compiles as msgfmt does: the reader reads each translation back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = inputBytes(data, size)
  let counts = [0, 1, 2, 5, 11, 21, 101, 1_000_001, -1, Int.min, Int.max]
  if let catalog = CatalogFile(bytes: bytes) {
    for count in counts { _ = catalog.translation(of: "{count} second", count: count) }
    _ = catalog.translation(of: "")
  }
  if let rule = PluralRule(header: String(decoding: bytes, as: UTF8.self)) {
    for count in counts { _ = rule.index(for: count) }
  }

  let pieces = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
  var messages: [(original: [UInt8], translation: [UInt8])] = []
  var index = 0
  while index + 1 < pieces.count {
    // The header is the translation of the empty original; it is tried above.
    if !pieces[index].isEmpty { messages.append((pieces[index], pieces[index + 1])) }
    index += 2
  }
  guard let catalog = CatalogFile(bytes: compiled(messages)) else {
    require(false, "a catalog written as msgfmt writes one reads")
    return 0
  }
  var expected: [String: String] = [:]
  for (original, translation) in messages {
    expected[String(decoding: original, as: UTF8.self)] = String(decoding: translation, as: UTF8.self)
  }
  for (original, translation) in expected {
    let found = catalog.translation(of: original)
    require(
      found == (translation.isEmpty ? nil : translation),
      "\(original.debugDescription) reads back as \(translation.debugDescription), not \(found.debugDescription)"
    )
  }
  return 0
}

/// The bytes of a little-endian `.mo` file of `messages`, as GNU msgfmt lays one out:
/// the header, the originals' table, the translations' table, then the strings, each
/// followed by a NUL.
func compiled(_ messages: [(original: [UInt8], translation: [UInt8])]) -> [UInt8] {
  func word(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
  let count = messages.count
  let originalsTable = 28
  let translationsTable = originalsTable + 8 * count
  var strings: [UInt8] = []
  var originals: [UInt8] = []
  var translations: [UInt8] = []
  let stringsStart = translationsTable + 8 * count
  for (original, _) in messages {
    originals += word(original.count) + word(stringsStart + strings.count)
    strings += original + [0]
  }
  for (_, translation) in messages {
    translations += word(translation.count) + word(stringsStart + strings.count)
    strings += translation + [0]
  }
  let header =
    word(0x9504_12de) + word(0) + word(count) + word(originalsTable) + word(translationsTable) + word(0)
    + word(0)
  return header + originals + translations + strings
}
