import Foundation
import Testing

extension SpeakingTests {
  /// announce's own sentences in the user's language, with the voice asked for the same
  /// language, as speech-dispatcher's protocol shows (issue #38).
  @Suite struct Languages: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// The environment of a client under `locale` whose commands `recorder` keeps.
    func environment(
      locale: String, through recorder: ProtocolRecorder, state: String
    ) throws
      -> [String: String]
    {
      var environment = try TestLanguages.environment(
        stack.clientEnvironment(["XDG_STATE_HOME": state]), locale: locale
      ).filter { !$0.key.hasPrefix("ANNOUNCE_") }
      environment["SPEECHD_ADDRESS"] = "unix_socket:" + recorder.path
      return environment
    }

    func freshState() -> String {
      NSTemporaryDirectory() + "announce-languages-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

    /// The `SET self LANGUAGE` commands in what was sent.
    func languagesSet(_ recorder: ProtocolRecorder) -> [String] {
      recorder.commands.components(separatedBy: "\r\n").filter {
        $0.uppercased().hasPrefix("SET SELF LANGUAGE ")
      }
      .map { String($0.dropFirst("SET self LANGUAGE ".count)) }
    }

    /// The texts of the `spoken` records in the log under `state`.
    func spokenTexts(state: String) -> [String] {
      let text = (try? String(contentsOfFile: state + "/announce/log.jsonl", encoding: .utf8)) ?? ""
      return text.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
    }

    @Test func theBashHookSpeaksAGermanSentenceWithAGermanVoiceUnderAGermanLocale() throws {
      let recorder = try ProtocolRecorder(daemonSocket: String(stack.address.dropFirst("unix_socket:".count)))
      defer { recorder.close() }
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      var environment = try environment(locale: "de_DE.UTF-8", through: recorder, state: state)
      environment["ANNOUNCE_MIN_SECONDS"] = "1"
      let session = try ShellSession(
        .bash, setup: ["eval \"$(\"$ANNOUNCE\" init bash)\""], environment: environment)
      defer { session.close() }
      #expect(session.waitUntilReady(), "bash showed no prompt: \(session.screen())")
      #expect(session.waitForPrompt { session.type("sleep 1.2") })
      func spoken() -> [String] {
        session.logEntries().filter { $0["event"] as? String == "spoken" }.compactMap {
          $0["text"] as? String
        }
      }
      #expect(session.wait(timeout: 20) { !spoken().isEmpty }, "\(session.logEntries())")
      #expect(spoken() == ["sleep 1.2 ist fertig, Laufzeit 1 Sekunde"])
      #expect(languagesSet(recorder) == ["de"], "\(recorder.commands)")
    }

    /// doctor's test sentence names the user's settings in the locale's language, and its
    /// `--json` keeps them in English.
    @Test func doctorNamesTheUsersSettingsInTheLocalesLanguage() throws {
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      var environment = try TestLanguages.environment(
        stack.clientEnvironment(["XDG_STATE_HOME": state]), locale: "de_DE.UTF-8"
      ).filter { !$0.key.hasPrefix("ANNOUNCE_") }
      environment["ANNOUNCE_RATE"] = "20"
      let printed = try Command.run(Command.announce, ["doctor"], environment: environment, timeout: 60)
      #expect(
        printed.standardOutput.contains(
          "Der Testsatz wurde bis zum Ende abgespielt, mit der Geschwindigkeit 20, in "),
        "\(printed.standardOutput)")
      let json = try Command.run(
        Command.announce, ["doctor", "--json"], environment: environment, timeout: 60)
      #expect(
        json.standardOutput.contains(
          "\"text\":\"The test sentence was played to the end with the rate 20, in "),
        "\(json.standardOutput)")
    }

    @Test func languageFrenchMakesTheFloodSummaryFrench() throws {
      let recorder = try ProtocolRecorder(daemonSocket: String(stack.address.dropFirst("unix_socket:".count)))
      defer { recorder.close() }
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let result = try Command.run(
        Command.announce, ["--json", "--language", "fr", "--max-queue", "1", "--rate", "100"],
        environment: environment(locale: "C", through: recorder, state: state),
        input: (1...30).map { "ligne \($0)\n" }.joined())
      let spoken = result.standardOutput.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.filter { $0["event"] as? String == "spoken" }.compactMap { $0["text"] as? String }
      let summaries = spoken.filter { $0.hasSuffix(" messages ignorés") || $0.hasSuffix(" message ignoré") }
      #expect(!summaries.isEmpty, "\(spoken)")
      #expect(!spoken.contains { $0.hasSuffix("skipped") }, "\(spoken)")
      #expect(Set(languagesSet(recorder)) == ["fr"], "\(recorder.commands.prefix(2000))")
    }

    /// What `announce hook-finished` for `make`, ended with `status` after 2 minutes 5
    /// seconds, logs as spoken under `locale`, and the languages it set.
    func hookFinished(status: Int32, locale: String) throws -> (spoken: [String], languages: [String]) {
      let recorder = try ProtocolRecorder(daemonSocket: String(stack.address.dropFirst("unix_socket:".count)))
      defer { recorder.close() }
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let result = try Command.run(
        Command.announce,
        ["hook-finished", "--status", String(status), "--milliseconds", "125000", "--", "make"],
        environment: environment(locale: locale, through: recorder, state: state))
      #expect(result.status == 0, "\(result.standardError)")
      return (spokenTexts(state: state), languagesSet(recorder))
    }

    @Test func aLocaleWithNoCatalogSpeaksEnglishWithTheLanguageEnglish() throws {
      let (spoken, languages) = try hookFinished(status: 2, locale: "it_IT.UTF-8")
      #expect(spoken == ["make failed with status 2 after 2 minutes 5 seconds"])
      #expect(languages == ["en"])
    }

    /// With the daemon: an unknown output module and voice, the --verbose line and a
    /// rejected JSON line are printed in German, and the JSON events keep the English.
    @Test func voiceProblemsAndRejectedLinesPrintInTheLocalesLanguage() throws {
      let recorder = try ProtocolRecorder(daemonSocket: String(stack.address.dropFirst("unix_socket:".count)))
      defer { recorder.close() }
      let state = freshState()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let german = try environment(locale: "de_DE.UTF-8", through: recorder, state: state)
      let module = try Command.run(
        Command.announce, ["--verbose", "--output-module", "nosuchmodule", "Hallo"], environment: german)
      #expect(module.status == 64, "\(module.standardError)")
      #expect(module.standardError.hasPrefix("Mit speech-dispatcher unter "), "\(module.standardError)")
      #expect(
        module.standardError.contains("speech-dispatcher hat kein Ausgabemodul \"nosuchmodule\"; es hat "),
        "\(module.standardError)")
      let input = """
        {"text": "Eins", "voice": "NoSuchVoice"}
        {"text": 3}

        """
      let lines = try Command.run(
        Command.announce, ["--input", "json", "--json"], environment: german, input: input)
      #expect(lines.status == 65, "\(lines.standardError)")
      let printed = lines.standardError.split(separator: "\n").map(String.init)
      #expect(printed.count == 2, "\(lines.standardError)")
      #expect(
        printed.first?.hasPrefix("Eingabezeile 1 übersprungen: Das Ausgabemodul ") == true
          && printed.first?.contains(" hat keine Stimme \"NoSuchVoice\"; seine ") == true,
        "\(lines.standardError)")
      #expect(
        printed.last == "Eingabezeile 2 übersprungen: \"text\" muss eine Zeichenkette sein, nicht 3.",
        "\(lines.standardError)")
      #expect(
        lines.standardOutput.contains(" has no voice \\\"NoSuchVoice\\\"; see its "),
        "\(lines.standardOutput)")
      #expect(lines.standardOutput.contains("must be a string, not 3"), "\(lines.standardOutput)")
    }

    @Test func theCLocaleSaysTodaysSentenceAndLeavesTheLanguageAlone() throws {
      let (spoken, languages) = try hookFinished(status: 0, locale: "C")
      #expect(spoken == ["make finished after 2 minutes 5 seconds"])
      #expect(languages.isEmpty)
    }
  }
}

/// Lines printed for a person follow the locale; `LANG=C` prints today's English.
@Suite struct PrintedLanguageTests {
  func run(_ arguments: [String], locale: String) throws -> (Command.Result, state: String) {
    let state = NSTemporaryDirectory() + "announce-printed-\(getpid())-\(UUID().uuidString.prefix(8))"
    var environment = try TestLanguages.environment(ProcessInfo.processInfo.environment, locale: locale)
      .filter { !$0.key.hasPrefix("ANNOUNCE_") }
    environment["XDG_STATE_HOME"] = state
    return (try Command.run(Command.announce, arguments, environment: environment), state)
  }

  func run(_ arguments: [String], locale: String, _ variables: [String: String]) throws -> Command.Result {
    var environment = try TestLanguages.environment(ProcessInfo.processInfo.environment, locale: locale)
      .filter { !$0.key.hasPrefix("ANNOUNCE_") }
    environment.merge(Command.privateHome()) { $1 }
    environment.merge(variables) { $1 }
    return try Command.run(Command.announce, arguments, environment: environment, timeout: 30)
  }

  /// A usage error, a doctor line and a replay error in German under a German locale,
  /// and exactly as before under C.
  @Test func errorsAndDoctorLinesPrintInTheLocalesLanguage() throws {
    let usage = try run(["--verbose", "--quiet", "Hallo"], locale: "de_DE.UTF-8", [:])
    #expect(usage.status == 64)
    #expect(
      usage.standardError
        == "announce: --verbose und --quiet widersprechen einander; wählen Sie eines (siehe announce --help).\n"
    )
    let plainUsage = try run(["--verbose", "--quiet", "Hallo"], locale: "C", [:])
    #expect(
      plainUsage.standardError
        == "announce: --verbose and --quiet contradict each other; choose one (see announce --help).\n")

    let range = try run(["--rate", "500", "Hallo"], locale: "de_DE.UTF-8", [:])
    #expect(
      range.standardError
        == "announce: --rate muss eine ganze Zahl von -100 bis 100 sein, nicht 500 (siehe announce --help).\n"
    )
    let plainRange = try run(["--rate", "500", "Hallo"], locale: "C", [:])
    #expect(
      plainRange.standardError
        == "announce: --rate must be a whole number from -100 to 100, not 500 (see announce --help).\n")

    let replay = try run(["replay"], locale: "de_DE.UTF-8", ["ANNOUNCE_HISTORY": "off"])
    #expect(replay.status == 64)
    #expect(
      replay.standardError
        == "announce: ANNOUNCE_HISTORY=off führt keinen Verlauf, also gibt es nichts zu wiederholen; entfernen Sie die Variable, um zu wiederholen (siehe announce replay --help).\n"
    )
    let plainReplay = try run(["replay"], locale: "C", ["ANNOUNCE_HISTORY": "off"])
    #expect(
      plainReplay.standardError
        == "announce: ANNOUNCE_HISTORY=off keeps no history, so there is nothing to replay; unset it to replay (see announce replay --help).\n"
    )

    let socket = NSTemporaryDirectory() + "announce-printed-\(getpid())-none.sock"
    let doctor = try run(["doctor", "--address", "unix_socket:" + socket], locale: "de_DE.UTF-8", [:])
    #expect(
      doctor.standardOutput.contains(
        "announce sucht speech-dispatcher unter dem Unix-Socket \(socket), mit --address angegeben.\n"),
      "\(doctor.standardOutput)")
    let plainDoctor = try run(["doctor", "--address", "unix_socket:" + socket], locale: "C", [:])
    #expect(
      plainDoctor.standardOutput.contains(
        "announce looks for speech-dispatcher at the unix socket \(socket), given with --address.\n"),
      "\(plainDoctor.standardOutput)")
    #expect(
      doctor.standardOutput.contains(
        "Nichts lauscht unter dem Unix-Socket \(socket); starten Sie speech-dispatcher dort, oder korrigieren Sie --address oder SPEECHD_ADDRESS.\n"
      ), "\(doctor.standardOutput)")
    #expect(
      doctor.standardOutput.contains(
        "Es wurde kein Testsatz gesprochen, weil speech-dispatcher nicht antwortet.\n"),
      "\(doctor.standardOutput)")
    #expect(
      plainDoctor.standardOutput.contains(
        "Nothing listens at the unix socket \(socket); start speech-dispatcher there, or correct --address or SPEECHD_ADDRESS.\n"
      ), "\(plainDoctor.standardOutput)")
    #expect(
      plainDoctor.standardOutput.contains(
        "No test sentence was spoken, because speech-dispatcher does not answer.\n"),
      "\(plainDoctor.standardOutput)")
    // doctor --json stays English for programs under any locale.
    let json = try run(
      ["doctor", "--json", "--address", "unix_socket:" + socket], locale: "de_DE.UTF-8", [:])
    #expect(
      json.standardOutput.contains(
        "\"text\":\"Nothing listens at the unix socket \(socket); start speech-dispatcher there, or correct --address or SPEECHD_ADDRESS.\""
      ), "\(json.standardOutput)")
  }

  /// Braille, SSML, init ssh and the outcome log's read problem, each in German under a
  /// German locale; the SSML error exactly as before under C.
  @Test func brailleSSMLSSHAndLogErrorsPrintInTheLocalesLanguage() throws {
    let braille = try run(["--braille-only", "Hallo"], locale: "de_DE.UTF-8", ["BRLAPI_HOST": ":77"])
    #expect(braille.status == 69, "\(braille.standardError)")
    #expect(
      braille.standardError.hasPrefix(
        "Braille ist unter BrlAPI host :77 nicht verfügbar, weil brltty dort nicht erreichbar ist ("),
      "\(braille.standardError)")

    let doctor = try run(
      [
        "doctor", "--address",
        "unix_socket:" + NSTemporaryDirectory() + "announce-printed-\(getpid())-none.sock",
      ],
      locale: "de_DE.UTF-8",
      ["BRLAPI_HOST": ":77", "ANNOUNCE_BRAILLE": "on"])
    #expect(
      doctor.standardOutput.contains(
        "Braille ist unter BrlAPI host :77 nicht verfügbar, weil brltty dort nicht erreichbar ist ("),
      "\(doctor.standardOutput)")

    let ssml = try run(["--ssml", "<voice>x</voice>"], locale: "de_DE.UTF-8", [:])
    #expect(ssml.status == 65)
    #expect(
      ssml.standardError
        == "Ungültige Eingabe: Das SSML muss <speak> als Wurzelelement haben, nicht <voice>; korrigieren Sie das SSML oder lassen Sie --ssml weg.\n"
    )
    let plainSSML = try run(["--ssml", "<voice>x</voice>"], locale: "C", [:])
    #expect(
      plainSSML.standardError
        == "Bad input: The SSML must have <speak> as its root element, not <voice>; fix the SSML or leave out --ssml.\n"
    )

    let ssh = try run(["init", "ssh", "two hosts"], locale: "de_DE.UTF-8", [:])
    #expect(ssh.status == 64)
    #expect(
      ssh.standardError
        == "announce: HOST muss ein einziger Hostname oder ein Muster sein, ohne Leerzeichen oder Anführungszeichen (siehe announce init ssh --help).\n"
    )

    let history = try run(["Hallo"], locale: "de_DE.UTF-8", ["ANNOUNCE_HISTORY": "maybe"])
    #expect(history.status == 64)
    #expect(
      history.standardError.hasPrefix(
        "announce: ANNOUNCE_HISTORY=maybe ist weder on noch off; setzen Sie es auf off, um keine Ergebnisse mehr aufzuzeichnen, oder entfernen Sie es"
      ), "\(history.standardError)")

    let state = NSTemporaryDirectory() + "announce-printed-\(getpid())-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: state) }
    try FileManager.default.createDirectory(atPath: state + "/announce", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: state + "/announce/log.jsonl", withDestinationPath: "/dev/null")
    let hook = try run(["init", "bash"], locale: "fr_FR.UTF-8", [:])
    #expect(
      hook.standardOutput.contains(
        "echo 'announce : le hook shell nécessite bash 5 ou plus récent ; ce shell est bash '\"$BASH_VERSION\"'.' >&2"
      ), "\(hook.standardOutput)")

    // A missed announcement's reason, in a few words.
    let missedState = state + "-missed"
    defer { try? FileManager.default.removeItem(atPath: missedState) }
    let unreachable = [
      "XDG_STATE_HOME": missedState, "SPEECHD_ADDRESS": "unix_socket:\(missedState)/none.sock",
    ]
    _ = try run(["Hallo"], locale: "de_DE.UTF-8", unreachable)
    let missed = try run(["history", "--missed"], locale: "de_DE.UTF-8", unreachable)
    #expect(
      missed.standardOutput.hasSuffix("(speech-dispatcher nicht erreichbar): Hallo\n"),
      "\(missed.standardOutput)")

    let unreadable = try run(["history"], locale: "de_DE.UTF-8", ["XDG_STATE_HOME": state])
    #expect(unreadable.status != 0)
    #expect(
      unreadable.standardError.hasPrefix(
        "Das Ergebnisprotokoll \(state)/announce/log.jsonl kann nicht gelesen werden ("),
      "\(unreadable.standardError)")
    #expect(unreadable.standardError.contains("), also kann der Verlauf nicht gezeigt werden; "))
  }

  /// Each check of doctor prints its line in German under a German locale: the settings,
  /// the shell hook, tmux, the SSH forward, the recent errors and the log; `--json` keeps
  /// every line in English for programs.
  @Test func everyDoctorCheckPrintsInTheLocalesLanguageAndItsJSONStaysEnglish() throws {
    let state = NSTemporaryDirectory() + "announce-printed-\(getpid())-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: state) }
    let socket = NSTemporaryDirectory() + "announce-printed-\(getpid())-none.sock"
    let arguments = ["doctor", "--address", "unix_socket:" + socket]
    let variables = [
      "ANNOUNCE_RATE": "500", "ANNOUNCE_MIN_SECONDS": "soon", "SHELL": "/bin/bash", "XDG_STATE_HOME": state,
      "TMUX": "\(state)/no-tmux-server,1,0", "SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 22",
    ]
    let german = try run(arguments, locale: "de_DE.UTF-8", variables)
    let lines = german.standardOutput.split(separator: "\n").map(String.init)
    for expected in [
      "ANNOUNCE_RATE=500 ist ungültig, erwartet wird eine ganze Zahl von -100 bis 100; setzen Sie einen gültigen Wert, etwa 50, oder entfernen Sie die Variable; bis dahin schlägt jeder Shell-Hook und jede tmux-Meldung mit Status 64 fehl und sagt nichts.",
      "ANNOUNCE_MIN_SECONDS=soon ist ungültig, erwartet wird eine Dauer, etwa 10, 90s oder 1m, also verhält sich der Shell-Hook, als wäre die Variable nicht gesetzt; setzen Sie einen gültigen Wert, oder entfernen Sie die Variable.",
      "In dieser Shell ist kein Shell-Hook von announce aktiv; um zu hören, wann ein langer Befehl endet, fügen Sie eval \"$(announce init bash)\" zu ~/.bashrc hinzu.",
      "Dies ist eine SSH-Sitzung, aber --address bestimmt, wohin die Sprachausgabe geht, also wird keine Weiterleitung gesucht.",
      "In den letzten 24 Stunden ist kein Shell-Hook, kein tmux-Hook und keine Ansage im Hintergrund fehlgeschlagen.",
      "Ergebnisse und Verlauf werden in \(state)/announce/log.jsonl geführt, das beschreibbar ist.",
    ] {
      #expect(lines.contains(expected), "\(german.standardOutput)")
    }
    // tmux's line depends on whether tmux is installed to say there is no server.
    #expect(
      lines.contains {
        $0.hasPrefix("tmux hat keinen der Hooks von announce") || $0.hasPrefix("tmux hat nicht")
      },
      "\(german.standardOutput)")

    let json = try run(arguments + ["--json"], locale: "de_DE.UTF-8", variables)
    let texts = json.standardOutput.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["text"] as? String
    }
    #expect(texts.count == lines.count, "\(json.standardOutput)")
    for text in texts {
      #expect(
        !["Sie ", " ist ", " nicht", " und ", " wird "].contains { text.contains($0) },
        "German in --json: \(text)")
    }
    for expected in [
      "ANNOUNCE_RATE=500 is not a whole number from -100 to 100; set it to one, such as 50, or unset it; until then every shell hook and tmux alert fails with status 64 and says nothing.",
      "ANNOUNCE_MIN_SECONDS=soon is not a duration, such as 10, 90s or 1m, so the shell hook acts as if it were unset; set it to one, or unset it.",
      "No announce shell hook is active in this shell; to hear when a long command ends, add eval \"$(announce init bash)\" to ~/.bashrc.",
      "This is an SSH session, but --address chooses where speech goes, so no forward is looked for.",
      "No shell hook, tmux hook or background announcement failed in the last day.",
      "Outcomes and the history are kept in \(state)/announce/log.jsonl, which can be written.",
    ] {
      #expect(texts.contains(expected), "\(json.standardOutput)")
    }
  }

  /// The sentence of a daemon that cannot be reached, made by the command from the core's
  /// failure, in German under a German locale, and exactly as before under C.
  /// swift-argument-parser's own usage errors, which it words in English only, are said
  /// in the locale's language; under C they are exactly its English.
  @Test func theParsersOwnUsageErrorsPrintInTheLocalesLanguage() throws {
    let cases: [(arguments: [String], german: String, english: String)] = [
      (
        ["--colr", "x"], "Unbekannte Option '--colr'",
        "Unknown option '--colr'"
      ),
      (
        ["--rate"], "Für '--rate <rate>' fehlt ein Wert",
        "Missing value for '--rate <rate>'"
      ),
      (
        ["--timeout", "soon", "x"],
        "Der Wert 'soon' ist für '--timeout <seconds>' ungültig: es ist keine Dauer wie 3, 90s oder 1m",
        "The value 'soon' is invalid for '--timeout <seconds>': it is not a duration, such as 3, 90s or 1m"
      ),
      (
        ["--priority", "loud", "x"],
        "Der Wert 'loud' ist für '--priority <priority>' ungültig; geben Sie 'important', 'message', 'text', 'notification' oder 'progress' an",
        "The value 'loud' is invalid for '--priority <priority>'. Please provide one of 'important', 'message', 'text', 'notification' or 'progress'"
      ),
      (
        ["--voice-type", "robot", "x"],
        "Der Wert 'robot' ist für '--voice-type <type>' ungültig; geben Sie einen dieser Werte an: male1, male2, male3, female1, female2, female3, child_male oder child_female",
        "The value 'robot' is invalid for '--voice-type <type>'. Please provide one of the following: male1, male2, male3, female1, female2, female3, child_male or child_female"
      ),
    ]
    for (arguments, german, english) in cases {
      let translated = try run(arguments, locale: "de_DE.UTF-8", [:])
      #expect(translated.status == 64)
      #expect(translated.standardError == "announce: \(german) (siehe announce --help).\n")
      let plain = try run(arguments, locale: "C", [:])
      #expect(plain.status == 64)
      #expect(plain.standardError == "announce: \(english) (see announce --help).\n")
    }
  }

  /// A relative HOME gives the outcome log no place: the run refuses in the locale's
  /// language, and under C in the English a script may match.
  @Test func aRelativeHomeIsSaidInTheLocalesLanguage() throws {
    func refused(locale: String) throws -> Command.Result {
      var environment = try TestLanguages.environment(ProcessInfo.processInfo.environment, locale: locale)
        .filter { !$0.key.hasPrefix("ANNOUNCE_") }
      environment["XDG_STATE_HOME"] = nil
      environment["HOME"] = "relative-home"
      return try Command.run(Command.announce, ["Hallo"], environment: environment, timeout: 30)
    }
    let german = try refused(locale: "de_DE.UTF-8")
    #expect(german.status == 64)
    #expect(
      german.standardError.contains(
        "HOME=relative-home ist kein absoluter Pfad, also hat das Ergebnisprotokoll keinen Ort; setzen Sie HOME auf den absoluten Pfad Ihres Home-Verzeichnisses"
      ), "\(german.standardError)")
    let plain = try refused(locale: "C")
    #expect(plain.status == 64)
    #expect(
      plain.standardError.contains(
        "HOME=relative-home is not an absolute path, so the outcome log has no place; set HOME to the absolute path"
      ), "\(plain.standardError)")
  }

  @Test func anUnreachableDaemonIsSaidInTheLocalesLanguage() throws {
    // Only paths this test made: what connect() answers at a path outside them depends on
    // the machine (a directory there answers "connection refused", nothing there "no such
    // file or directory").
    let directory = NSTemporaryDirectory() + "announce-unreachable-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(
      atPath: directory + "/refusing", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let missing = ["SPEECHD_ADDRESS": "unix_socket:\(directory)/none.sock"]
    let german = try run(["Hallo"], locale: "de_DE.UTF-8", missing)
    #expect(german.status == 69)
    #expect(
      german.standardError
        == "announce konnte speech-dispatcher unter dem Unix-Socket \(directory)/none.sock nicht erreichen: no such file or directory; starten Sie speech-dispatcher unter dieser Adresse, oder korrigieren Sie die Adresse oder SPEECHD_ADDRESS.\n"
    )
    // A directory at the socket's path: connect() refuses at once.
    let refusing = ["SPEECHD_ADDRESS": "unix_socket:\(directory)/refusing"]
    let plain = try run(["Hallo"], locale: "C", refusing)
    #expect(plain.status == 69)
    #expect(
      plain.standardError
        == "announce could not reach speech-dispatcher at the unix socket \(directory)/refusing: connection refused; start speech-dispatcher at that address, or correct the address or SPEECHD_ADDRESS.\n"
    )
  }

  /// The outcome log's records stay in English under any locale: a hook's bad variable
  /// is printed in German and recorded as before.
  @Test func theLogRecordsAFailureInEnglishUnderAGermanLocale() throws {
    let state = NSTemporaryDirectory() + "announce-printed-\(getpid())-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: state) }
    let result = try run(
      ["hook-finished", "--status", "0", "--milliseconds", "125000", "--", "make"], locale: "de_DE.UTF-8",
      ["ANNOUNCE_RATE": "500", "XDG_STATE_HOME": state])
    #expect(result.status == 64, "\(result.standardError)")
    let log = (try? String(contentsOfFile: state + "/announce/log.jsonl", encoding: .utf8)) ?? ""
    #expect(
      log.contains(
        "ANNOUNCE_RATE=500 is not a whole number from -100 to 100; set it to one, such as 50, or unset it."),
      "\(log)")
    #expect(!log.contains("ungültig"), "\(log)")
  }

  @Test func historyAndReplayPrintInTheLocalesLanguage() throws {
    let (history, state) = try run(["history"], locale: "de_DE.UTF-8")
    defer { try? FileManager.default.removeItem(atPath: state) }
    #expect(history.status == 0, "\(history.standardError)")
    #expect(history.standardOutput == "In \(state)/announce/log.jsonl ist noch nichts aufgezeichnet.\n")
    let (replay, _) = try run(["replay"], locale: "fr_FR.UTF-8")
    #expect(
      replay.standardOutput
        == "Rien n'a été annoncé depuis le début de l'historique, il n'y a donc rien à rejouer.\n")
    let (plain, cState) = try run(["history"], locale: "C")
    #expect(plain.standardOutput == "Nothing is recorded yet in \(cState)/announce/log.jsonl.\n")
  }
}
