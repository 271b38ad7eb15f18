/// The `plural=` expression of a catalog's `Plural-Forms` header, such as `(n != 1)` or
/// Polish's `(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)`: the C
/// subset that gettext's own grammar takes (numbers, `n`, `! * / % + - < > <= >= == != && ||`
/// and `?:`), evaluated for a count to give the index of the form to use.
///
/// It is evaluated as gettext evaluates it, in `unsigned long`: arithmetic wraps, and no
/// division overflows (in `Int`, `Int.min / -1` traps, and a crafted catalog reaches it
/// with `0 - 9223372036854775807 - 1`); a division by zero gives 0. The catalog is a file
/// from outside, so a rule that nests more than ``maxNesting`` deep or has more than
/// ``maxTokens`` tokens is refused, as one that does not parse is: the parser and the
/// evaluation recurse, and 100,000 parentheses overflowed the stack. The longest rule
/// gettext documents (Arabic's) has 43 tokens and nests 7 deep.
struct PluralRule: Sendable {
  /// The most a rule may nest: the rule itself, each parenthesis, `!` and `?:` count one level.
  static let maxNesting = 64
  /// The most tokens a rule may have, which bounds the depth of a chain such as `n+n+…+n`.
  static let maxTokens = 1_000

  private indirect enum Node: Sendable {
    case count
    case number(UInt)
    case not(Node)
    case binary(String, Node, Node)
    case choice(Node, Node, Node)
  }

  private let root: Node

  /// English's rule, `n != 1`, which gettext uses when a catalog names none.
  static let germanic = PluralRule(root: .binary("!=", .count, .number(1)))

  private init(root: Node) { self.root = root }

  /// The rule of a `Plural-Forms` header's value (`nplurals=2; plural=(n > 1);`); `nil`
  /// when it has no `plural=` or the expression does not parse.
  init?(header: String) {
    guard let start = header.firstRange(of: "plural=") else { return nil }
    let expression = header[start.upperBound...].prefix { $0 != ";" && $0 != "\n" }
    let tokens = Parser.tokens(of: String(expression))
    guard tokens.count <= Self.maxTokens else { return nil }
    var parser = Parser(tokens: tokens)
    guard let root = parser.choice(), parser.atEnd else { return nil }
    self.root = root
  }

  /// The index of the plural form for `count`.
  func index(for count: Int) -> Int {
    Int(truncatingIfNeeded: Self.value(of: root, UInt(truncatingIfNeeded: count)))
  }

  private static func value(of node: Node, _ n: UInt) -> UInt {
    switch node {
    case .count: return n
    case .number(let value): return value
    case .not(let operand): return value(of: operand, n) == 0 ? 1 : 0
    case .choice(let condition, let yes, let no):
      return value(of: condition, n) != 0 ? value(of: yes, n) : value(of: no, n)
    case .binary(let op, let left, let right):
      let a = value(of: left, n)
      let b = value(of: right, n)
      switch op {
      case "*": return a &* b
      case "/": return b == 0 ? 0 : a / b
      case "%": return b == 0 ? 0 : a % b
      case "+": return a &+ b
      case "-": return a &- b
      case "<": return a < b ? 1 : 0
      case ">": return a > b ? 1 : 0
      case "<=": return a <= b ? 1 : 0
      case ">=": return a >= b ? 1 : 0
      case "==": return a == b ? 1 : 0
      case "!=": return a != b ? 1 : 0
      case "&&": return a != 0 && b != 0 ? 1 : 0
      default: return a != 0 || b != 0 ? 1 : 0
      }
    }
  }

  /// A recursive-descent parser over C's precedence, loosest first.
  private struct Parser {
    static let levels: [[String]] = [
      ["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"],
    ]

    var tokens: [String]
    var position = 0
    var atEnd: Bool { position == tokens.count }

    /// How deep the parser is in parentheses, `!` and `?:`.
    var nesting = 0

    /// The tokens of `text`, and at most one more than ``PluralRule/maxTokens``.
    static func tokens(of text: String) -> [String] {
      var tokens: [String] = []
      var characters = Array(text)[...]
      while let first = characters.first, tokens.count <= PluralRule.maxTokens {
        if first == " " || first == "\t" {
          characters.removeFirst()
        } else if first.isNumber {
          let digits = characters.prefix { $0.isNumber }
          tokens.append(String(digits))
          characters.removeFirst(digits.count)
        } else if characters.count > 1,
          ["<=", ">=", "==", "!=", "&&", "||"].contains(String(characters.prefix(2)))
        {
          tokens.append(String(characters.prefix(2)))
          characters.removeFirst(2)
        } else {
          tokens.append(String(first))
          characters.removeFirst()
        }
      }
      return tokens
    }

    mutating func choice() -> Node? {
      nesting += 1
      defer { nesting -= 1 }
      guard nesting <= PluralRule.maxNesting, let condition = binary(0) else { return nil }
      guard take("?") else { return condition }
      guard let yes = choice(), take(":"), let no = choice() else { return nil }
      return .choice(condition, yes, no)
    }

    private mutating func binary(_ level: Int) -> Node? {
      guard level < Self.levels.count else { return unary() }
      guard var left = binary(level + 1) else { return nil }
      while position < tokens.count, Self.levels[level].contains(tokens[position]) {
        let op = tokens[position]
        position += 1
        guard let right = binary(level + 1) else { return nil }
        left = .binary(op, left, right)
      }
      return left
    }

    private mutating func unary() -> Node? {
      guard position < tokens.count else { return nil }
      let token = tokens[position]
      position += 1
      switch token {
      case "!":
        nesting += 1
        defer { nesting -= 1 }
        return nesting <= PluralRule.maxNesting ? unary().map(Node.not) : nil
      case "n": return .count
      case "(":
        guard let inner = choice(), take(")") else { return nil }
        return inner
      default: return UInt(token).map(Node.number)
      }
    }

    private mutating func take(_ token: String) -> Bool {
      guard position < tokens.count, tokens[position] == token else { return false }
      position += 1
      return true
    }
  }
}
