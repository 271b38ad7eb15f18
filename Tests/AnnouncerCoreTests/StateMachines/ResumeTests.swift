import Testing

@testable import AnnouncerCore

/// A retry resumes at the first sentence whose end was not reported, driven by hand.
@Suite struct ResumeTests {
  typealias Action = AnnouncementStateMachine.Action
  static let sentences = [
    "The first step copied all the files.", "The second step compiled the sources.",
    "The third step ran every test in the suite.", "The fourth step wrote the report.",
  ]
  static let text = sentences.joined(separator: " ")
  let final = SpeechRequest.finalMarkName

  /// These tests are about where a retry starts, so the first quiet probe starts it: the
  /// settle window before it has tests of its own.
  static let timing = {
    var timing = AnnouncerTiming()
    timing.settleWindow = .zero
    return timing
  }()

  func mark(_ n: Int) -> String { ResumePoint.markPrefix + String(n) }

  /// Drives one announcement through attempts by hand; ids count up from 100.
  struct Driver {
    var machine: AnnouncementStateMachine
    var now = Duration.zero
    var nextID = 100
    /// The request of the attempt in flight and its id.
    var request: SpeechRequest?
    var id = 0
    var events: [AnnouncerEvent.Kind] = []

    init(_ announcement: Announcement, timing: AnnouncerTiming = ResumeTests.timing) {
      machine = AnnouncementStateMachine(announcement, timing: timing)
    }

    mutating func take(_ actions: [Action]) {
      for action in actions {
        switch action {
        case .submit(let request, let serial):
          nextID += 1
          let more = machine.submissionAccepted(serial: serial, id: nextID, now: now)
          if request.purpose == .announcement {
            self.request = request
            id = nextID
          } else {
            // The probe finds the channel quiet.
            take(more + machine.handle(.ended(nextID), now: now))
            continue
          }
          take(more)
        case .takeTurn:
          take(machine.turnTaken(now: now))
        case .report(let kind):
          events.append(kind)
        case .releaseTurn, .cancelSpeech, .finish:
          break
        }
      }
    }

    mutating func start() { take(machine.start(now: now)) }
    mutating func at(_ seconds: Double, _ event: (MessageID) -> SpeechEvent) {
      now = .seconds(seconds)
      take(machine.handle(event(id), now: now))
    }
  }

  func attempt(
    _ announcement: Announcement = Announcement(text, retryTimeout: .seconds(30))
  )
    -> Driver
  {
    var driver = Driver(announcement)
    driver.start()
    driver.at(0.01) { .began($0) }
    return driver
  }

  @Test func everyBoundaryOfTheFirstAttemptCarriesAMarkBeforeItsFullStop() {
    let driver = attempt()
    let request = driver.request!
    #expect(request.text == Self.text)
    #expect(request.marks.map(\.name) == [mark(1), mark(2), mark(3)])
    let stops = request.marks.map {
      request.text[request.text.index(request.text.startIndex, offsetBy: $0.offset)]
    }
    #expect(stops == [".", ".", "."])
  }

  @Test(arguments: 0..<4)
  func anInterruptionInEachSentenceResumesAtThatSentence(sentence: Int) {
    var driver = attempt()
    for n in 0..<sentence {
      driver.at(1 + Double(n)) { [mark] in .indexMark($0, name: mark(n + 1)) }
    }
    driver.at(5) { .cancelled($0) }
    let expected = Self.sentences[sentence...].joined(separator: " ")
    #expect(driver.request!.text == expected)
    #expect(driver.machine.attempts == 2)
    let resumeAt = driver.machine.resumeOffset
    #expect(
      resumeAt == (sentence == 0 ? nil : Self.text.unicodeScalars.count - expected.unicodeScalars.count))
    // The retry's marks are numbered afresh and cover only what is left.
    #expect(driver.request!.marks.count == 3 - sentence)
    driver.at(6) { .began($0) }
    driver.at(9) { [final] in .indexMark($0, name: final) }
    driver.at(9.3) { .ended($0) }
    #expect(driver.machine.outcome == .spoken(attempts: 2, duration: .seconds(9.3)))
  }

  @Test func anInterruptionBeforeTheFirstMarkRepeatsTheWholeText() {
    var driver = attempt()
    driver.at(0.5) { .cancelled($0) }
    #expect(driver.request!.text == Self.text)
    #expect(driver.machine.resumeOffset == nil)
  }

  @Test func aMarkThatWasNotReportedIsNoPlaceToResumeFrom() {
    // espeak-ng reported the first boundary and lost the second.
    var driver = attempt()
    driver.at(1) { [mark] in .indexMark($0, name: mark(1)) }
    driver.at(3) { .cancelled($0) }
    #expect(driver.request!.text == Self.sentences[1...].joined(separator: " "))
  }

  @Test func severalInterruptionsEachResumeFurther() {
    var driver = attempt()
    driver.at(1) { [mark] in .indexMark($0, name: mark(1)) }
    driver.at(1.5) { .cancelled($0) }
    #expect(driver.request!.text == Self.sentences[1...].joined(separator: " "))
    // The second attempt is cut off before its first mark: it resumes at the same place.
    driver.at(2) { .began($0) }
    driver.at(2.5) { .cancelled($0) }
    #expect(driver.request!.text == Self.sentences[1...].joined(separator: " "))
    // The third reaches its first mark ("The second step…" done), then END without the final mark.
    driver.at(3) { .began($0) }
    driver.at(4) { [mark] in .indexMark($0, name: mark(1)) }
    driver.at(4.5) { .ended($0) }
    #expect(driver.request!.text == Self.sentences[2...].joined(separator: " "))
    #expect(driver.events.filter { $0 == .interrupted }.count == 3)
    driver.at(5) { .began($0) }
    driver.at(8) { [final] in .indexMark($0, name: final) }
    driver.at(8.2) { .ended($0) }
    #expect(driver.machine.outcome == .spoken(attempts: 4, duration: .seconds(8.2)))
  }

  @Test func aRetrysMarksCountFromWhereItStarted() {
    var driver = attempt()
    driver.at(1) { [mark] in .indexMark($0, name: mark(2)) }
    driver.at(1.5) { .cancelled($0) }
    // The retry's own mark 1 is the old text's boundary 3: the retry resumes at sentence 4.
    driver.at(2) { .began($0) }
    driver.at(3) { [mark] in .indexMark($0, name: mark(1)) }
    driver.at(3.5) { .cancelled($0) }
    #expect(driver.request!.text == Self.sentences[3])
  }

  @Test func restartRepeatsTheWholeTextWithoutMarks() {
    var driver = attempt(Announcement(Self.text, retryTimeout: .seconds(30), resume: false))
    #expect(driver.request!.marks.isEmpty)
    driver.at(1) { .cancelled($0) }
    #expect(driver.request!.text == Self.text)
    #expect(driver.machine.resumeOffset == nil)
  }

  @Test func ssmlIsRepeatedWhole() {
    let ssml = "<speak>One. <mark name=\"mine\"/>Two. Three.</speak>"
    var driver = attempt(Announcement(ssml, isSSML: true, retryTimeout: .seconds(30)))
    #expect(driver.request!.marks.isEmpty)
    driver.at(1) { .indexMark($0, name: "mine") }
    driver.at(2) { .cancelled($0) }
    #expect(driver.request!.text == ssml)
  }

  @Test func withoutARetryWindowNoMarksAreSent() {
    let driver = attempt(Announcement(Self.text, retryTimeout: .zero))
    #expect(driver.request!.marks.isEmpty)
  }

  @Test func theRetryWindowStillDecides() {
    // A resumed retry is an attempt like any other: none starts after the window closes.
    var driver = attempt(Announcement(Self.text, retryTimeout: .seconds(2)))
    driver.at(1) { [mark] in .indexMark($0, name: mark(1)) }
    driver.at(1.5) { .cancelled($0) }
    #expect(driver.machine.attempts == 2)
    driver.at(1.6) { .began($0) }
    driver.at(2.5) { .cancelled($0) }
    #expect(driver.machine.outcome == .gaveUp(.interruptedOutOfTime))
  }

  @Test func withinPartsEachPartResumesOnItsOwn() {
    var timing = Self.timing
    timing.longestPart = 90
    var driver = Driver(Announcement(Self.text, retryTimeout: .seconds(30)), timing: timing)
    driver.start()
    #expect(driver.machine.partCount == 2)
    let firstPart = Self.sentences[0...1].joined(separator: " ")
    let secondPart = Self.sentences[2...3].joined(separator: " ")
    #expect(driver.request!.text == firstPart)
    #expect(driver.request!.marks.map(\.name) == [mark(1)])
    driver.at(1) { .began($0) }
    driver.at(2) { [mark] in .indexMark($0, name: mark(1)) }
    driver.at(2.5) { .cancelled($0) }
    #expect(driver.request!.text == Self.sentences[1])
    #expect(driver.machine.resumeOffset == Self.sentences[0].unicodeScalars.count + 1)
    driver.at(3) { .began($0) }
    driver.at(4) { [final] in .indexMark($0, name: final) }
    driver.at(4.2) { .ended($0) }
    // The next part starts at its own beginning, and its offsets count from there.
    #expect(driver.machine.partNumber == 2)
    #expect(driver.request!.text == secondPart)
    #expect(driver.machine.resumeOffset == nil)
    driver.at(5) { .began($0) }
    driver.at(6) { [mark] in .indexMark($0, name: mark(1)) }
    driver.at(6.5) { .cancelled($0) }
    #expect(driver.request!.text == Self.sentences[3])
    #expect(driver.machine.resumeOffset == Self.sentences[2].unicodeScalars.count + 1)
    driver.at(7) { .began($0) }
    driver.at(8) { [final] in .indexMark($0, name: final) }
    driver.at(8.2) { .ended($0) }
    #expect(driver.machine.outcome == .spoken(attempts: 4, duration: .seconds(8.2)))
  }

  @Test func theAttemptEventSaysWhereItResumed() {
    var queue = AnnouncementQueue(timing: Self.timing)
    let id = AnnouncementID(1)
    var reported: [AnnouncerEvent] = []
    var submissions: [(SpeechRequest, SubmissionID)] = []
    func take(_ actions: [AnnouncementQueue.Action]) {
      for action in actions {
        switch action {
        case .report(let event): reported.append(event)
        case .submit(let request, let submission): submissions.append((request, submission))
        case .takeTurn(let id): take(queue.turnTaken(id, now: .zero))
        default: break
        }
      }
    }
    take(
      queue.enqueue(Announcement(Self.text, retryTimeout: .seconds(30)), id: id, now: .zero, awaited: false))
    take(queue.submissionAccepted(submissions[0].1, messageID: 100, now: .zero))
    take(queue.handle(.began(100), now: .zero))
    take(queue.handle(.indexMark(100, name: mark(2)), now: .seconds(2)))
    take(queue.handle(.cancelled(100), now: .seconds(3)))
    take(queue.submissionAccepted(submissions[1].1, messageID: 101, now: .seconds(3)))
    take(queue.handle(.ended(101), now: .seconds(3)))
    let attempts = reported.filter { $0.kind == .attempt }
    #expect(
      attempts.map(\.resumeAt) == [
        nil,
        Self.text.unicodeScalars.count - (Self.sentences[2...].joined(separator: " ")).unicodeScalars.count,
      ])
    #expect(submissions.last?.0.text == Self.sentences[2...].joined(separator: " "))
  }
}
