import FoundationEssentials

/// A compiled catalog (`LL/LC_MESSAGES/announce.mo`) read by announce itself: used only for
/// a language that glibc's gettext refuses to answer in, which is any language other than
/// the locale's when the locale of messages is C (and, since glibc 2.39, C.UTF-8, glibc
/// bug 16621) and no locale of that language is installed.
///
/// The format is GNU gettext's: a magic number giving the byte order, the count of
/// messages, and two tables of (length, offset) pairs, the originals' and the
/// translations'. A plural message's original is `singular NUL plural`, its translation
/// the forms joined by NUL; the header is the translation of the empty original.
struct CatalogFile: Sendable {
  private let translations: [String: [String]]
  private let rule: PluralRule

  /// The catalog at `path`; `nil` when it is missing or not a catalog.
  init?(path: String) {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
    self.init(bytes: [UInt8](data))
  }

  /// The catalog in `bytes`; `nil` when they are not one.
  init?(bytes: [UInt8]) {
    func word(_ offset: Int, bigEndian: Bool) -> Int? {
      guard offset >= 0, offset + 4 <= bytes.count else { return nil }
      let four = bytes[offset..<offset + 4].map(UInt32.init)
      let value =
        bigEndian
        ? four[0] << 24 | four[1] << 16 | four[2] << 8 | four[3]
        : four[3] << 24 | four[2] << 16 | four[1] << 8 | four[0]
      return Int(value)
    }
    guard let magic = word(0, bigEndian: false), magic == 0x9504_12de || magic == 0xde12_0495 else {
      return nil
    }
    let big = magic == 0xde12_0495
    guard let count = word(8, bigEndian: big), let originals = word(12, bigEndian: big),
      let translated = word(16, bigEndian: big)
    else { return nil }
    func strings(_ table: Int, _ index: Int) -> [String]? {
      guard let length = word(table + 8 * index, bigEndian: big),
        let start = word(table + 8 * index + 4, bigEndian: big), start + length <= bytes.count
      else { return nil }
      return bytes[start..<start + length].split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
    }
    var translations: [String: [String]] = [:]
    for index in 0..<count {
      guard let key = strings(originals, index)?.first, let forms = strings(translated, index) else {
        return nil
      }
      translations[key] = forms
    }
    self.translations = translations
    rule = translations[""]?.first.flatMap { PluralRule(header: $0) } ?? .germanic
  }

  /// The translation of `message`; `nil` when the catalog lacks it.
  func translation(of message: String) -> String? {
    translations[message]?.first.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The form of `singular`'s translation for `count`; `nil` when the catalog lacks it.
  func translation(of singular: String, count: Int) -> String? {
    guard let forms = translations[singular] else { return nil }
    let index = rule.index(for: count)
    return forms.indices.contains(index) && !forms[index].isEmpty ? forms[index] : nil
  }
}
