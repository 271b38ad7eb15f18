import AnnouncerCore

extension AnnounceRun {
  /// Opens the desktop notification channel the request asks for: `nil` when
  /// notifications are off (and libsystemd is never loaded). With `--notify`, a server
  /// that cannot be reached is said in one line and the other channels go ahead without it.
  ///
  /// - Throws: with `--notify-only`, the service-unavailable failure that says what to
  ///   start, after recording the TEXTs as `no-server`, so that `history --missed` lists
  ///   them and `replay` can bring them back.
  func openNotifications() async throws(RunFailure) -> NotificationChannel? {
    guard request.plan.uses(.notification) else { return nil }
    switch await notificationService.server(environment: request.connection.environment) {
    case .success(let server):
      let wording = SpokenLanguage(for: request).floodSummary
      let notifier = Notifier(
        server: server, maxOnScreen: request.maxQueue, summary: { wording.sentence($0) })
      // A server that reads markup in the body would take a command's `<` or `&` for it.
      // Asked only when there is a body: GetServerInformation and GetCapabilities are two
      // round trips to the server before the first Notify, which notify-send does not make
      // (strace of `--notify-only` against dunst).
      var body = request.notificationBody
      if !body.isEmpty, await server.information()?.capabilities.contains("body-markup") ?? false {
        body = NotificationChannel.escapingMarkup(body)
      }
      return NotificationChannel(
        notifier: notifier, address: server.address, terminal: terminal,
        withSpeech: request.plan.uses(.speech), body: body)
    case .failure(let unavailable):
      if request.plan.requires(.notification) {
        recordNotNotified()
        throw .serviceUnavailable(unavailable.printedMessage)
      }
      terminal.error(unavailable.printedMessage)
      return nil
    }
  }

  /// `--notify-only` with no server: records each TEXT as `no-server`, missed, for replay.
  private func recordNotNotified() {
    recordUndelivered { id, shown in NotificationReport(id: id, text: shown, outcome: .noServer, time: .zero)
    }
  }
}
