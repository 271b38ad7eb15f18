/// A generator of test inputs: a function from a seeded random number generator to a value,
/// with the few building blocks the property tests use (numbers, flags, characters, strings,
/// arrays, choices). `propertyCheck` runs a test on many values of one.
package struct Gen<Value> {
  private let make: (inout SeededGenerator) -> Value

  /// A generator that makes each value with `make`.
  package init(_ make: @escaping (inout SeededGenerator) -> Value) { self.make = make }

  /// The next value, drawn with `generator`.
  package func next(_ generator: inout SeededGenerator) -> Value { make(&generator) }

  /// A generator of `transform` applied to this generator's values.
  package func map<Other>(_ transform: @escaping (Value) -> Other) -> Gen<Other> {
    Gen<Other> { transform(make(&$0)) }
  }

  /// This generator's values, or `nil` one time in four.
  package var optional: Gen<Value?> {
    Gen<Value?> { generator in Int.random(in: 0..<4, using: &generator) == 0 ? nil : make(&generator) }
  }

  /// Arrays of this generator's values, as many as a number drawn from `counts`.
  package func array(of counts: ClosedRange<Int>) -> Gen<[Value]> {
    Gen<[Value]> { generator in
      (0..<Int.random(in: counts, using: &generator)).map { _ in make(&generator) }
    }
  }

  /// Arrays of `count` of this generator's values.
  package func array(of count: Int) -> Gen<[Value]> { array(of: count...count) }

  /// One of `elements`, each as likely; `elements` must not be empty.
  package static func element(of elements: [Value]) -> Gen<Value> {
    precondition(!elements.isEmpty, "Gen.element(of:) needs at least one element to choose from")
    return Gen { elements[Int.random(in: elements.indices, using: &$0)] }
  }
}

extension Gen where Value: CaseIterable {
  /// Any case of the enumeration, each as likely.
  package static var anyCase: Gen<Value> { element(of: Array(Value.allCases)) }
}

extension Gen where Value == Int {
  /// Any number in `range`, each as likely.
  package static func int(in range: ClosedRange<Int>) -> Gen<Int> {
    Gen { Int.random(in: range, using: &$0) }
  }
}

extension Gen where Value == Bool {
  /// `true` or `false`, each as likely.
  package static var bool: Gen<Bool> { Gen { Bool.random(using: &$0) } }
}

extension Gen where Value == Character {
  /// Any character whose one scalar is in `scalars`, each scalar as likely; the surrogates
  /// (U+D800 to U+DFFF), which are no scalars, are drawn again.
  package static func character(in scalars: ClosedRange<UInt32>) -> Gen<Character> {
    Gen { generator in
      while true {
        if let scalar = Unicode.Scalar(UInt32.random(in: scalars, using: &generator)) {
          return Character(scalar)
        }
      }
    }
  }

  /// Any ASCII character, U+0000 to U+007F.
  package static var ascii: Gen<Character> { character(in: 0...0x7F) }

  /// Any Latin-1 character, U+0000 to U+00FF.
  package static var latin1: Gen<Character> { character(in: 0...0xFF) }

  /// Strings of these characters, as many as a number drawn from `lengths`.
  package func string(of lengths: ClosedRange<Int>) -> Gen<String> { array(of: lengths).map { String($0) } }
}
