import CCmarkGFM
import Glibc

/// The few functions of cmark-gfm, GitHub's CommonMark parser, that reading Markdown
/// aloud uses, found with `dlopen` and `dlsym` the first time Markdown is asked for: a
/// run without Markdown starts as before and needs neither library installed.
struct Libcmark: @unchecked Sendable {
  /// The libraries' file names: their sonames in Debian 12 (0.29.0.gfm.6) and 13
  /// (0.29.0.gfm.13), each soname carrying the version.
  static let fileNames = [
    ("libcmark-gfm.so.0.29.0.gfm.13", "libcmark-gfm-extensions.so.0.29.0.gfm.13"),
    ("libcmark-gfm.so.0.29.0.gfm.6", "libcmark-gfm-extensions.so.0.29.0.gfm.6"),
  ]

  typealias Node = OpaquePointer

  let parserNew: @convention(c) (Int32) -> OpaquePointer?
  let parserFeed: @convention(c) (OpaquePointer, UnsafePointer<CChar>, Int) -> Void
  let parserFinish: @convention(c) (OpaquePointer) -> OpaquePointer?
  let parserFree: @convention(c) (OpaquePointer) -> Void
  let attachExtension: @convention(c) (OpaquePointer, OpaquePointer) -> Int32
  let findExtension: @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
  let nodeFree: @convention(c) (Node) -> Void
  let iterNew: @convention(c) (Node) -> OpaquePointer?
  let iterNext: @convention(c) (OpaquePointer) -> cmark_event_type
  let iterNode: @convention(c) (OpaquePointer) -> Node?
  let iterFree: @convention(c) (OpaquePointer) -> Void
  let nodeType: @convention(c) (Node) -> cmark_node_type
  let nodeTypeString: @convention(c) (Node) -> UnsafePointer<CChar>?
  let nodeLiteral: @convention(c) (Node) -> UnsafePointer<CChar>?
  let nodeURL: @convention(c) (Node) -> UnsafePointer<CChar>?
  let firstChild: @convention(c) (Node) -> Node?
  let next: @convention(c) (Node) -> Node?
  let rowIsHeader: @convention(c) (Node) -> Int32

  /// The libraries, loaded once; `nil` when they are not installed.
  static let shared: Libcmark? = load()

  private static func load() -> Libcmark? {
    for (core, extensions) in fileNames {
      guard let library = dlopen(core, RTLD_NOW | RTLD_LOCAL) else { continue }
      // The extensions library refers to the core's symbols; RTLD_GLOBAL is not needed
      // because it links the core by its soname, which the loader finds already loaded.
      guard let extra = dlopen(extensions, RTLD_NOW | RTLD_LOCAL) else {
        dlclose(library)
        continue
      }
      if let loaded = bind(library, extra) { return loaded }
      dlclose(extra)
      dlclose(library)
    }
    return nil
  }

  private static func bind(_ library: UnsafeMutableRawPointer, _ extra: UnsafeMutableRawPointer) -> Libcmark?
  {
    func symbol<T>(_ name: String, as type: T.Type, in handle: UnsafeMutableRawPointer) -> T? {
      guard let address = dlsym(handle, name) else { return nil }
      return unsafeBitCast(address, to: type)
    }
    guard
      let register = symbol(
        "cmark_gfm_core_extensions_ensure_registered", as: (@convention(c) () -> Void).self, in: extra),
      let rowIsHeader = symbol(
        "cmark_gfm_extensions_get_table_row_is_header", as: (@convention(c) (Node) -> Int32).self, in: extra),
      let parserNew = symbol(
        "cmark_parser_new", as: (@convention(c) (Int32) -> OpaquePointer?).self, in: library),
      let parserFeed = symbol(
        "cmark_parser_feed", as: (@convention(c) (OpaquePointer, UnsafePointer<CChar>, Int) -> Void).self,
        in: library),
      let parserFinish = symbol(
        "cmark_parser_finish", as: (@convention(c) (OpaquePointer) -> OpaquePointer?).self, in: library),
      let parserFree = symbol(
        "cmark_parser_free", as: (@convention(c) (OpaquePointer) -> Void).self, in: library),
      let attachExtension = symbol(
        "cmark_parser_attach_syntax_extension",
        as: (@convention(c) (OpaquePointer, OpaquePointer) -> Int32).self, in: library),
      let findExtension = symbol(
        "cmark_find_syntax_extension", as: (@convention(c) (UnsafePointer<CChar>) -> OpaquePointer?).self,
        in: library),
      let nodeFree = symbol("cmark_node_free", as: (@convention(c) (Node) -> Void).self, in: library),
      let iterNew = symbol("cmark_iter_new", as: (@convention(c) (Node) -> OpaquePointer?).self, in: library),
      let iterNext = symbol(
        "cmark_iter_next", as: (@convention(c) (OpaquePointer) -> cmark_event_type).self, in: library),
      let iterNode = symbol(
        "cmark_iter_get_node", as: (@convention(c) (OpaquePointer) -> Node?).self, in: library),
      let iterFree = symbol(
        "cmark_iter_free", as: (@convention(c) (OpaquePointer) -> Void).self, in: library),
      let nodeType = symbol(
        "cmark_node_get_type", as: (@convention(c) (Node) -> cmark_node_type).self, in: library),
      let nodeTypeString = symbol(
        "cmark_node_get_type_string", as: (@convention(c) (Node) -> UnsafePointer<CChar>?).self, in: library),
      let nodeLiteral = symbol(
        "cmark_node_get_literal", as: (@convention(c) (Node) -> UnsafePointer<CChar>?).self, in: library),
      let nodeURL = symbol(
        "cmark_node_get_url", as: (@convention(c) (Node) -> UnsafePointer<CChar>?).self, in: library),
      let firstChild = symbol(
        "cmark_node_first_child", as: (@convention(c) (Node) -> Node?).self, in: library),
      let next = symbol("cmark_node_next", as: (@convention(c) (Node) -> Node?).self, in: library)
    else { return nil }
    register()
    return Libcmark(
      parserNew: parserNew, parserFeed: parserFeed, parserFinish: parserFinish, parserFree: parserFree,
      attachExtension: attachExtension, findExtension: findExtension, nodeFree: nodeFree, iterNew: iterNew,
      iterNext: iterNext, iterNode: iterNode, iterFree: iterFree, nodeType: nodeType,
      nodeTypeString: nodeTypeString, nodeLiteral: nodeLiteral, nodeURL: nodeURL, firstChild: firstChild,
      next: next, rowIsHeader: rowIsHeader)
  }
}
