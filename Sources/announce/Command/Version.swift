/// The version `--version` prints. It must equal the `VERSION` file at the top of the
/// tree, which the Makefile and the Debian package read; `VersionTests` checks that.
let announceVersion = "0.3.0"
