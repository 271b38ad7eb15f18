"""Benchmarks and the soak test for announce (issue #7, issue #5's soak).

Run it through bench/run or bench/soak; see `bench/run --help`. Standard library
only. Everything runs against private stacks from Tests/Support/teststack in a
directory that mkdtemp makes under /tmp (announce-bench-XXXXXX), which is stopped and removed at the end, even
on Ctrl-C: on Debian 12's speech-dispatcher, and for the figures that depend on
it also on Debian 13's (TESTSTACK_RELEASE=13). Only processes this package
started are ever signalled.

Modules: cli (command line), workspace (stacks, processes, the release build),
relay (the timestamping SSIP relay and its reply parsing), stats, scenarios
(the measurements), lean (the binary's size, start-up and memory), waiting
(processes waiting for their turns), soak, report (the tables and BENCHMARKS.md).
"""
