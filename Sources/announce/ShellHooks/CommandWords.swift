/// A shell command line read well enough to name it: its words, its simple commands,
/// and the program each one runs.
///
/// It is not a shell parser. It knows quotes, backslashes, comments (a `#` that starts a
/// word, to the end of its line) and the operators that
/// separate commands (`|`, `&&`, `||`, `;`, `&`, parentheses, line breaks), and it
/// looks through the prefixes that run another program: variable assignments,
/// `sudo`, `doas`, `env`, `nice`, `ionice`, `time`, `nohup`, `command`, `builtin`,
/// `exec`, `noglob`, `stdbuf`, `timeout`, and the reserved words of loops and conditions.
struct CommandWords {
  /// One word or operator of the command line.
  enum Token: Equatable {
    /// A word with its quotes and escapes removed.
    case word(String)
    /// An operator that ends a simple command.
    case separator
  }

  /// The simple commands, each as its words.
  let commands: [[String]]

  /// Reads `commandLine`.
  init(_ commandLine: String) {
    var commands: [[String]] = []
    var current: [String] = []
    for token in Self.tokens(commandLine) {
      switch token {
      case .word(let word): current.append(word)
      case .separator:
        if !current.isEmpty { commands.append(current) }
        current = []
      }
    }
    if !current.isEmpty { commands.append(current) }
    self.commands = commands
  }

  /// The program each simple command runs, by its name without a directory.
  var programs: [String] {
    commands.compactMap { Self.programIndex(in: $0).map { Self.baseName($0.1) } }
  }

  /// The most words that a short name has.
  static let shortNameWords = 3

  /// Commands that only prepare the one that matters, such as `cd build` in `cd build && make`.
  static let preparations: Set<String> = ["cd", "pushd", "popd", "export", "clear", "source", "."]

  /// The first words of the command that matters: its program without a directory and
  /// the arguments up to the first option, at most ``shortNameWords`` words, an argument
  /// that is a path cut to its last part. Prefixes and preparations are left out, and so
  /// are variable assignments, which may hold secrets.
  var shortName: String {
    let named = commands.compactMap { words in
      Self.programIndex(in: words).map { (words: words, program: Self.baseName($0.1)) }
    }
    guard
      let words = (named.first(where: { !Self.preparations.contains($0.program) }) ?? named.first)?
        .words
    else { return "" }
    return Self.shortName(of: words) ?? ""
  }

  /// The short name of the part of the line's last pipeline that failed, the last
  /// whose status in `pipeStatus` is not 0, as `set -o pipefail` reports; `nil` when
  /// the line does not end with a pipeline of that many simple commands.
  func failedPartName(pipeStatus: [Int32]) -> String? {
    guard pipeStatus.count > 1, commands.count >= pipeStatus.count else { return nil }
    let parts = Array(commands.suffix(pipeStatus.count))
    let failed = pipeStatus.lastIndex { $0 != 0 } ?? parts.count - 1
    return Self.shortName(of: parts[failed])
  }

  /// The short name of one simple command: its program without a directory and the
  /// arguments up to the first option, as ``shortName`` describes.
  static func shortName(of words: [String]) -> String? {
    guard let (start, _) = programIndex(in: words) else { return nil }
    var result = [baseName(words[start])]
    for word in words[(start + 1)...] {
      if result.count == shortNameWords || !isSpeakableArgument(word) { break }
      result.append(baseName(word))
    }
    return result.joined(separator: " ")
  }

  /// Whether `word` reads well as part of a name: no option, redirection, expansion or long blob.
  private static func isSpeakableArgument(_ word: String) -> Bool {
    guard let first = word.first, first != "-", word.count <= 30 else { return false }
    return !word.contains(where: { "<>$`=*?{}".contains($0) })
  }

  /// The last part of a path, or the word itself.
  static func baseName(_ word: String) -> String {
    let trimmed = word.hasSuffix("/") ? String(word.dropLast()) : word
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    let last = trimmed[trimmed.index(after: slash)...]
    return last.isEmpty ? trimmed : String(last)
  }

  // MARK: Looking through prefixes

  /// A program that runs another: which of its options take a separate value, and how
  /// many plain arguments come before the program it runs.
  private struct Prefix {
    var optionsWithValue: Set<String> = []
    var arguments = 0
  }

  private static let prefixes: [String: Prefix] = [
    "sudo": Prefix(optionsWithValue: [
      "-u", "-g", "-C", "-D", "-p", "-r", "-t", "-U", "-T", "-R", "--user", "--group",
      "--close-from", "--chdir", "--prompt", "--role", "--type", "--other-user",
      "--command-timeout", "--chroot",
    ]),
    "doas": Prefix(optionsWithValue: ["-u", "-C"]),
    "env": Prefix(optionsWithValue: ["-u", "-C", "-S", "--unset", "--chdir", "--split-string"]),
    "nice": Prefix(optionsWithValue: ["-n", "--adjustment"]),
    "ionice": Prefix(optionsWithValue: ["-c", "-n", "--class", "--classdata"]),
    "time": Prefix(optionsWithValue: ["-f", "-o", "--format", "--output"]),
    "nohup": Prefix(), "command": Prefix(), "builtin": Prefix(), "noglob": Prefix(),
    "exec": Prefix(optionsWithValue: ["-a"]),
    "stdbuf": Prefix(optionsWithValue: ["-i", "-o", "-e"]),
    "timeout": Prefix(optionsWithValue: ["-s", "-k", "--signal", "--kill-after"], arguments: 1),
    "!": Prefix(), "if": Prefix(), "then": Prefix(), "else": Prefix(), "elif": Prefix(),
    "do": Prefix(), "while": Prefix(), "until": Prefix(), "{": Prefix(),
  ]

  /// Where the program of a simple command is, and its word; `nil` for assignments only.
  static func programIndex(in words: [String]) -> (Int, String)? {
    var index = 0
    while index < words.count {
      let word = words[index].hasPrefix("\\") ? String(words[index].dropFirst()) : words[index]
      if isAssignment(word) {
        index += 1
        continue
      }
      guard let prefix = prefixes[word] else { return (index, word) }
      // A prefix with nothing after it, such as `sudo -i`, is the program itself.
      guard let next = indexAfterPrefix(prefix, words, from: index + 1), next < words.count else {
        return (index, word)
      }
      index = next
    }
    return nil
  }

  /// The index after a prefix's options, assignments and arguments.
  private static func indexAfterPrefix(_ prefix: Prefix, _ words: [String], from start: Int) -> Int? {
    var index = start
    var arguments = prefix.arguments
    while index < words.count {
      let word = words[index]
      if word == "--" {
        index += 1
        break
      }
      if word.hasPrefix("-") && word.count > 1 {
        index += prefix.optionsWithValue.contains(word) ? 2 : 1
      } else if isAssignment(word) {
        index += 1
      } else if arguments > 0 {
        arguments -= 1
        index += 1
      } else {
        break
      }
    }
    return index
  }

  /// Whether `word` is a variable assignment such as `CC=clang`.
  static func isAssignment(_ word: String) -> Bool {
    guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return false }
    let name = word[..<equals]
    guard let first = name.first, first == "_" || first.isLetter else { return false }
    return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
  }

  // MARK: Words

  /// The words and separators of `line`.
  static func tokens(_ line: String) -> [Token] {
    var tokens: [Token] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    var inComment = false
    func finishWord() {
      if inWord { tokens.append(.word(word)) }
      word = ""
      inWord = false
    }
    for character in line {
      if inComment {
        // A comment runs to the end of its line.
        guard character == "\n" else { continue }
        inComment = false
      }
      if escaped {
        word.append(character)
        escaped = false
        continue
      }
      if let open = quote {
        if character == open {
          quote = nil
        } else if character == "\\" && open == "\"" {
          escaped = true
        } else {
          word.append(character)
        }
        continue
      }
      switch character {
      case "\\":
        escaped = true
        inWord = true
      case "'", "\"":
        quote = character
        inWord = true
      case "&" where word.hasSuffix(">") || word.hasSuffix("<"):
        // The `&` of a redirection such as `2>&1`.
        word.append(character)
      case "#" where !inWord:
        // `#` at the start of a word starts a comment, as in `sleep 60 # wait`.
        finishWord()
        inComment = true
      case "|", "&", ";", "(", ")", "\n":
        finishWord()
        if tokens.last != .separator { tokens.append(.separator) }
      default:
        if character.isWhitespace {
          finishWord()
        } else {
          word.append(character)
          inWord = true
        }
      }
    }
    finishWord()
    return tokens
  }
}
