import AnnouncerCore
import AnnouncerTesting
import Foundation
import Testing

@testable import announce

/// Runs that read one JSON document (issue #49), with a scripted speech service: what is
/// spoken, the exit status, and what the history keeps, rejected documents included.
@Suite(.timeLimit(.minutes(1))) struct DocumentRunTests {
  let service = ScriptedService()

  /// A request that reads `document` as Codex CLI passes it, an argument, quietly.
  func request(_ document: String, reading: TextReading, log: OutcomeLog) -> AnnounceRequest {
    AnnounceRequest(
      input: .texts([document]), reading: reading,
      outcomes: AnnounceRequest.Outcomes(quiet: true, history: log))
  }

  static let codex = TextReading(format: .jsonDocument, textField: "last-assistant-message", markdown: true)

  @Test func aDocumentsTextIsSpokenAndRecordedWithItsSource() async throws {
    try await withTemporaryLog { log in
      let speaking = service.speakEverything()
      var reading = TextReading(format: .jsonDocument, textField: "message", sourceField: "cwd")
      reading.markdown = true
      let payload = #"{"cwd": "\#(UnusedPath.folder())/shop", "message": "Claude needs your **permission**"}"#
      let result = await AnnounceRun(request(payload, reading: reading, log: log), service: service).result()
      #expect(ExitStatus.of(result) == 0)
      await service.backend.close()
      #expect(await speaking.value == ["shop: Claude needs your permission."])
      #expect(History(log: log).outcomes.map(\.text) == ["shop: Claude needs your permission."])
    }
  }

  @Test func aDocumentWithoutItsFieldExits65AndIsRecordedAsRejected() async throws {
    try await withTemporaryLog { log in
      let payload = #"{"type": "agent-turn-complete", "input-messages": ["fix it"]}"#
      let result = await AnnounceRun(request(payload, reading: Self.codex, log: log), service: service)
        .result()
      #expect(ExitStatus.of(result) == 65)
      let records = History(log: log).records
      #expect(records.map(\.event) == ["rejected"])
      #expect(records.first?.text == payload)
      #expect(records.first?.reason == "the object has no \"last-assistant-message\" field")
    }
  }

  @Test func aStopHookFiredTwiceIsSpokenAndRecordedTwice() async throws {
    try await withTemporaryLog { log in
      let payload = #"{"type": "agent-turn-complete", "last-assistant-message": "Done."}"#
      // Each run is a process of its own, with a connection of its own.
      for service in [ScriptedService(), ScriptedService()] {
        let speaking = service.speakEverything()
        let result = await AnnounceRun(request(payload, reading: Self.codex, log: log), service: service)
          .result()
        #expect(ExitStatus.of(result) == 0)
        await service.backend.close()
        #expect(await speaking.value == ["Done."])
      }
      let outcomes = History(log: log).outcomes
      #expect(outcomes.map(\.text) == ["Done.", "Done."])
      #expect(Set(outcomes.compactMap(\.key)).count == 2)
    }
  }

  @Test func aLongReplyIsSaidShortenedAndTheHistoryKeepsItWhole() async throws {
    try await withTemporaryLog { log in
      let speaking = service.speakEverything()
      let details = String(repeating: "Then the reader changed, and its tests. ", count: 10)
      let payload = #"{"last-assistant-message": "I renamed **parse**. The tests pass. \#(details)"}"#
      var reading = Self.codex
      reading.source = "shop"
      let result = await AnnounceRun(request(payload, reading: reading, log: log), service: service).result()
      #expect(ExitStatus.of(result) == 0)
      await service.backend.close()
      let said = "shop: I renamed parse. The tests pass. "
      let spoken = await speaking.value
      #expect(spoken.count == 1 && spoken.first?.hasPrefix(said) == true, "\(spoken)")
      #expect((spoken.first?.count ?? .max) <= "shop: ".count + LongText.limit)
      let recorded = try #require(History(log: log).outcomes.first?.text)
      #expect(recorded == said + details.trimmingCharacters(in: .whitespaces))
    }
  }

  static let hostileMarkdown: [(String, String)] = [
    (String(repeating: ">", count: 100_000) + " deep", "deep."),
    ("see [the docs](https://example.com/" + String(repeating: "a", count: 100_000), "see [the docs]("),
  ]

  @Test(arguments: hostileMarkdown)
  func hostileMarkdownIsSpokenAsItsWords(markdown: String, start: String) async throws {
    try #require(CmarkDocument.isAvailable)
    try await withTemporaryLog { log in
      let speaking = service.speakEverything()
      let payload = #"{"type": "agent-turn-complete", "last-assistant-message": "\#(markdown)"}"#
      let result = await AnnounceRun(request(payload, reading: Self.codex, log: log), service: service)
        .result()
      #expect(ExitStatus.of(result) == 0)
      await service.backend.close()
      let spoken = await speaking.value
      #expect(spoken.count == 1)
      #expect(spoken.first?.hasPrefix(start) == true, "\(spoken.map { $0.prefix(80) })")
      #expect((spoken.first?.count ?? .max) <= LongText.limit + 1)
    }
  }
}
