import AnnouncerCore
import Foundation
import Glibc

@testable import announce

extension HistoryRecorder {
  /// Records speech's `event` as the delivery loop reports it, through the one method
  /// every channel's reports go through.
  func record(_ event: AnnouncerEvent, at date: Date = Date(), pid: Int32 = getpid()) {
    reported(SpeechReport(event), at: date, pid: pid)
  }
}
