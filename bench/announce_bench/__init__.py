"""Benchmarks and the soak test for announce (issue #7, issue #5's soak).

Run it through bench/run or bench/soak; see `bench/run --help`. Standard library
only. Everything runs against private stacks from Tests/Support/teststack in a
directory /tmp/announce-bench-*, which is stopped and removed at the end, even
on Ctrl-C. Only processes this package started are ever signalled.

Modules: cli (command line), workspace (stacks, processes, the release build),
relay (the timestamping SSIP relay and its reply parsing), stats, scenarios
(the measurements), soak, report (the table and BENCHMARKS.md).
"""
