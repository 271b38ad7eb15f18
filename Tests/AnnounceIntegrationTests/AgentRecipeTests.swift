import Foundation
import Testing

extension SpeakingTests {
  /// Markdown heard as prose, and the recipes of docs/agents.md, each fed the payload its
  /// agent's documentation shows, run as the agent runs them, against the real daemon: what
  /// speech-dispatcher was sent, that it played, and what the history keeps (issue #49).
  @Suite struct AgentRecipes: RealStackTest {
    let stack: TestStack
    init() throws { stack = try TestStack.shared.get() }

    /// A folder of the test's own for the history, and the project folder an agent runs in.
    func freshFolder() throws -> String {
      let folder = stack.directory + "/agents-" + UUID().uuidString.prefix(8)
      try FileManager.default.createDirectory(atPath: folder + "/shop", withIntermediateDirectories: true)
      return folder
    }

    /// What ran `arguments` as an agent runs its hook, with `payload` on standard input, with
    /// announce on `PATH`, through a recorder of the SSIP sent, recording outcomes under
    /// `folder`: its result, the SSIP sent, and the seconds of speech that played.
    func run(
      _ arguments: [String], payload: String = "", folder: String, environment extra: [String: String] = [:]
    ) throws -> (result: Command.Result, sent: String, speech: Double) {
      let recorder = try ProtocolRecorder(daemonSocket: String(stack.address.dropFirst("unix_socket:".count)))
      defer { recorder.close() }
      var environment = stack.clientEnvironment(extra)
      environment["SPEECHD_ADDRESS"] = "unix_socket:" + recorder.path
      environment["XDG_STATE_HOME"] = folder + "/state"
      let binaries = (Command.announce as NSString).deletingLastPathComponent
      environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
      let recording = try stack.record()
      let result = try Command.run(
        arguments[0], Array(arguments.dropFirst()), environment: environment, input: payload)
      return (result, recorder.commands, recording.stop())
    }

    /// `recipe` as Claude Code, aider and Gemini CLI run a hook command: through `/bin/sh -c`.
    func shell(_ recipe: String) -> [String] { ["/bin/sh", "-c", recipe] }

    /// The texts of the history's records under `folder` with `event`.
    func texts(_ event: String, folder: String) -> [String] {
      let text = (try? String(contentsOfFile: folder + "/state/announce/log.jsonl", encoding: .utf8)) ?? ""
      return text.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.filter { $0["event"] as? String == event }.compactMap { $0["text"] as? String }
    }

    /// Checks that `sentence` was sent to speech-dispatcher, played, and kept as spoken, or
    /// that the history keeps `whole` for it, when it is a long text shortened.
    func expectHeard(
      _ sentence: String, in run: (result: Command.Result, sent: String, speech: Double), folder: String,
      whole: String? = nil
    ) {
      #expect(run.result.status == 0, "\(run.result.standardError)")
      // announce marks each sentence's end for its progress; the words are what was said.
      let said = run.sent.replacingOccurrences(
        of: #"<mark name="[^"]*"/>"#, with: "", options: .regularExpression)
      #expect(said.contains("<speak>" + sentence + "</speak>"), "\(said.suffix(400))")
      #expect(run.speech > 0.5, "\(run.speech) s of speech played")
      #expect(texts("spoken", folder: folder) == [whole ?? sentence])
    }

    @Test func markdownIsHeardAsProse() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let markdown = """
        ## Done

        I fixed the **failing** test in `Parser.swift`, see <https://example.com/pr/1>.

        ```
        swift test
        ```
        """
      let heard = try run([Command.announce, "--markdown", markdown], folder: folder)
      expectHeard(
        "Done. I fixed the failing test in Parser.swift, see link to example.com. code block, 1 line.",
        in: heard,
        folder: folder)
      #expect(!heard.sent.contains("**") && !heard.sent.contains("https://"))
    }

    /// Claude Code's Notification payload, as its hooks reference shows it.
    func claudeNotification(cwd: String) -> String {
      """
      {"session_id": "abc123", "transcript_path": "\(cwd)/.claude/abc123.jsonl", "cwd": "\(cwd)",
       "permission_mode": "default", "hook_event_name": "Notification",
       "message": "Claude needs your permission to use Bash", "notification_type": "permission_prompt"}
      """
    }

    @Test func claudeCodesNotificationRecipeNamesTheProject() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let heard = try run(
        shell(AgentRecipes.claudeNotification), payload: claudeNotification(cwd: folder + "/shop"),
        folder: folder)
      expectHeard("shop: Claude needs your permission to use Bash", in: heard, folder: folder)
    }

    @Test func claudeCodesStopRecipeNamesTheProjectAndIsHeardEachTime() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let payload = """
        {"session_id": "abc123", "transcript_path": "\(folder)/abc123.jsonl", "cwd": "\(folder)/shop",
         "permission_mode": "default", "hook_event_name": "Stop", "stop_hook_active": false}
        """
      let environment = ["CLAUDE_PROJECT_DIR": folder + "/shop"]
      let first = try run(
        shell(AgentRecipes.claudeStop), payload: payload, folder: folder, environment: environment)
      expectHeard("shop: Claude finished", in: first, folder: folder)
      // Fired twice: heard twice, and both are kept.
      let second = try run(
        shell(AgentRecipes.claudeStop), payload: payload, folder: folder, environment: environment)
      #expect(second.result.status == 0, "\(second.result.standardError)")
      #expect(texts("spoken", folder: folder) == ["shop: Claude finished", "shop: Claude finished"])
    }

    @Test func aRecipeWithDetachReturnsAtOnceAndIsHeardInTheBackground() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      // No recorder in between: the background process speaks after this run returns.
      var environment = stack.clientEnvironment(["XDG_STATE_HOME": folder + "/state"])
      let binaries = (Command.announce as NSString).deletingLastPathComponent
      environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
      let result = try Command.run(
        "/bin/sh", shell(AgentRecipes.claudeNotification + " --detach").dropFirst().map { $0 },
        environment: environment, input: claudeNotification(cwd: folder + "/shop"))
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.isEmpty && result.standardError.isEmpty)
      let deadline = Date().addingTimeInterval(20)
      while texts("spoken", folder: folder).isEmpty && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.1)
      }
      #expect(texts("spoken", folder: folder) == ["shop: Claude needs your permission to use Bash"])
    }

    @Test func codexsNotifyRecipeSaysTheGistOfTheLastMessage() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let reply = """
        I renamed `parse` to **`parseLine`** in three files. The tests pass. Here is what changed in each \
        file, in detail, so that you can review it before you commit: first the parser, then the reader, \
        then the tests.
        """
      let payload = try String(
        decoding: JSONSerialization.data(withJSONObject: [
          "type": "agent-turn-complete", "thread-id": "t1", "turn-id": "12345", "cwd": folder + "/shop",
          "input-messages": ["Rename parse to parseLine"], "last-assistant-message": reply,
        ]), as: UTF8.self)
      // Codex runs the notify program itself, with the payload as its last argument.
      let heard = try run(AgentRecipes.codexNotify(announce: Command.announce) + [payload], folder: folder)
      expectHeard(
        "shop: I renamed parse to parseLine in three files. The tests pass.", in: heard, folder: folder,
        whole:
          "shop: I renamed parse to parseLine in three files. The tests pass. Here is what changed in each "
          + "file, in detail, so that you can review it before you commit: first the parser, then the reader, "
          + "then the tests.")
    }

    @Test func aidersNotificationsCommandIsHeard() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let heard = try run(shell(AgentRecipes.aider), folder: folder)
      expectHeard("aider: waiting for you", in: heard, folder: folder)
    }

    @Test func geminiCLIsAfterAgentRecipeSaysTheReplyAndPrintsNothing() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let payload = """
        {"session_id": "s1", "transcript_path": "\(folder)/s1.json", "cwd": "\(folder)/shop",
         "hook_event_name": "AfterAgent", "timestamp": "2026-11-28T10:00:00Z",
         "prompt": "fix the build", "prompt_response": "The build is *fixed*.", "stop_hook_active": false}
        """
      let heard = try run(shell(AgentRecipes.geminiAfterAgent), payload: payload, folder: folder)
      expectHeard("shop: The build is fixed.", in: heard, folder: folder)
      // Gemini CLI reads a hook's standard output as JSON: announce prints nothing there.
      #expect(heard.result.standardOutput.isEmpty)
    }

    @Test func aTenMegabyteReplyIsSaidShortenedAndALargerDocumentIsRejected() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let words = String(repeating: "and then some more words ", count: 400_000)
      let reply = #"{"message": "Done. "# + words + "\"}\n"
      #expect(reply.utf8.count > 10_000_000)
      let heard = try run(shell(AgentRecipes.claudeNotification), payload: reply, folder: folder)
      #expect(heard.result.status == 0, "\(heard.result.standardError)")
      let said = heard.sent.replacingOccurrences(
        of: #"<mark name="[^"]*"/>"#, with: "", options: .regularExpression)
      #expect(said.contains("<speak>Done.</speak>"), "\(said.suffix(400))")
      #expect(heard.speech > 0.1)
      // The history keeps the whole reply, as far as a record keeps any text.
      let kept = texts("spoken", folder: folder)
      #expect(kept.count == 1 && kept.first?.hasPrefix("Done. and then some more words") == true)
      #expect((kept.first?.utf8.count ?? .max) <= 1_000)
      let tooLarge = #"{"message": "Done. "# + String(repeating: words, count: 2) + "\"}\n"
      let rejected = try run(shell(AgentRecipes.claudeNotification), payload: tooLarge, folder: folder)
      #expect(rejected.result.status == 65)
      #expect(
        rejected.result.standardError
          == "Skipped input line 1: the document is longer than the limit of 16 MiB (16777216 bytes); "
          + "send a shorter one.\n")
      #expect(texts("rejected", folder: folder).count == 1)
    }

    @Test func aPayloadWithoutItsFieldIsOneLineAndExit65AndIsRecordedAsRejected() throws {
      let folder = try freshFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let heard = try run(
        shell(AgentRecipes.claudeNotification), payload: #"{"cwd": "shop"}"#, folder: folder)
      #expect(heard.result.status == 65)
      #expect(
        heard.result.standardError == "Skipped input line 1: the object has no \"message\" field.\n")
      #expect(texts("rejected", folder: folder) == [#"{"cwd": "shop"}"#])
      // Where the user looks when a hook said nothing, since nobody read its standard error.
      let listed = try Command.run(
        Command.announce, ["history"],
        environment: stack.clientEnvironment(["XDG_STATE_HOME": folder + "/state"]))
      #expect(
        listed.standardOutput.hasSuffix(#" ago, rejected (invalid input): {"cwd": "shop"}"# + "\n"),
        "\(listed.standardOutput)")
    }
  }
}

extension SpeakingTests.AgentRecipes {
  /// The recipes of docs/agents.md, word for word; `DocumentsAgreeTests` holds the page to them.
  static let claudeNotification = "announce --input json-document --text-field message --source-field cwd"
  static let claudeStop = "announce --source \"${CLAUDE_PROJECT_DIR##*/}\" \"Claude finished\""
  static func codexNotify(announce: String) -> [String] {
    [
      announce, "--input", "json-document", "--text-field", "last-assistant-message", "--source-field", "cwd",
      "--markdown",
    ]
  }
  static let aider = "announce --source aider \"waiting for you\""
  static let geminiAfterAgent =
    "announce --input json-document --text-field prompt_response --source-field cwd --markdown"
}

/// docs/agents.md gives the recipes the real-stack tests run, word for word.
@Suite struct AgentRecipePageTests {
  static let page: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return (try? String(contentsOf: root.appendingPathComponent("docs/agents.md"), encoding: .utf8)) ?? ""
  }()

  /// `command` as a JSON string writes it, without its outer quotes.
  func inJSON(_ command: String) -> String { command.replacingOccurrences(of: "\"", with: "\\\"") }

  @Test func thePageGivesEachTestedRecipe() {
    let recipes = SpeakingTests.AgentRecipes.self
    #expect(!Self.page.isEmpty)
    #expect(Self.page.contains("\"command\": \"" + inJSON(recipes.claudeNotification) + "\""))
    #expect(Self.page.contains("\"command\": \"" + inJSON(recipes.claudeStop) + "\""))
    #expect(Self.page.contains("\"command\": \"" + inJSON(recipes.geminiAfterAgent) + "\""))
    #expect(Self.page.contains("notifications-command: " + recipes.aider + "\n"))
    let codex = recipes.codexNotify(announce: "announce").map { "\"" + $0 + "\"" }.joined(separator: ", ")
    #expect(Self.page.contains("notify = [" + codex + "]\n"))
  }
}
