import Glibc

/// The signals that end a run cleanly: our speech is cancelled, the outcome of every
/// announcement is reported, and the exit status is 128 plus the signal's number, as
/// shells report a process the signal killed. This is the one list of them; the man
/// page's EXIT STATUS and the README show it, and a test holds them to it.
enum HandledSignal: CaseIterable, Sendable {
  /// SIGHUP: the terminal was closed, or the SSH session dropped.
  case hangUp
  /// SIGINT: Control-C.
  case interrupt
  /// SIGQUIT: Control-\\. Without a handler, the Swift runtime prints a crash report of
  /// some 70 lines for it and the run went on to the end of its flash with status 0.
  case quit
  /// SIGTERM: `kill`, or a service manager stopping the process.
  case terminate

  /// The signal's number.
  var number: Int32 {
    switch self {
    case .hangUp: SIGHUP
    case .interrupt: SIGINT
    case .quit: SIGQUIT
    case .terminate: SIGTERM
    }
  }

  /// The signal's name, as the man page writes it.
  var name: String {
    switch self {
    case .hangUp: "SIGHUP"
    case .interrupt: "SIGINT"
    case .quit: "SIGQUIT"
    case .terminate: "SIGTERM"
    }
  }
}
