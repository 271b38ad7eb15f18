"""Unit tests of the report's inputs and output: python3 -m unittest discover -s bench/tests"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from announce_bench.report import BEGIN_MARK, END_MARK, Results, replace_section, table_rows  # noqa: E402
from announce_bench.scenarios import parse_core_output  # noqa: E402
from announce_bench.waiting import WaitingRun  # noqa: E402

CORE_OUTPUT = """\
stream: 10000 announcements x 5 runs
RESULT stream 250000 260000 4.000
RESULT queue 900000 950000 1.111
RESULT sequential 50000 52000 20.000
RESULT stream+json 100000 110000 10.000
PEAK_RSS_KIB 20480 1000000
"""


class CoreOutputTests(unittest.TestCase):
    def test_results_peak_rss_and_other_lines(self):
        core, other = parse_core_output(CORE_OUTPUT)
        self.assertEqual(core.stream.median, 250000)
        self.assertEqual(core.queue.best, 950000)
        self.assertEqual(core.sequential.us, 20.0)
        self.assertEqual((core.million_rss, core.million_count), (20480 * 1024, 1000000))
        self.assertEqual(other, ["stream: 10000 announcements x 5 runs"])

    def test_the_table_has_no_json_stream_figure(self):
        core, _ = parse_core_output(CORE_OUTPUT)
        text = " ".join(" ".join(row) for row in table_rows(Results(core=core)))
        self.assertNotIn("JSON", text)
        self.assertIn("250,000 /s", text)


class SectionTests(unittest.TestCase):
    def test_only_the_text_between_the_markers_changes(self):
        old = f"# Benchmarks\n\nby hand\n\n{BEGIN_MARK}\nold figures\n{END_MARK}\n\nafter\n"
        new = replace_section(old, f"{BEGIN_MARK}\nnew figures\n{END_MARK}\n")
        self.assertEqual(new, f"# Benchmarks\n\nby hand\n\n{BEGIN_MARK}\nnew figures\n{END_MARK}\n\nafter\n")

    def test_waiting_rows_say_cpu_per_process(self):
        run = WaitingRun(waiting=200, cpu=4.0, wall=90.0, finished=200, spoken=200, cap=330.0)
        rows = table_rows(Results(waiting=[run]))
        self.assertEqual(rows[0][0], "7. 200 processes waiting for turns, CPU")
        self.assertIn("20 ms each", rows[0][3])


if __name__ == "__main__":
    unittest.main()


class LeanRowsTests(unittest.TestCase):
    def lean(self, **changes):
        from announce_bench.lean import Lean
        values = dict(size=20_000_000, stripped=14_000_000, spdsay_size=30_000, icudt_symbol=False, needs_icu=False,
                      loads_icu=True, version=0.004, spdsay_version=0.002, rss=9 * 1024 * 1024,
                      spdsay_rss=5 * 1024 * 1024, version_rss=8 * 1024 * 1024)
        values.update(changes)
        return Lean(**values)

    def goals(self, lean):
        res = Results()
        res.lean = lean
        return [row[5] for row in table_rows(res) if row[0].startswith("9.") and row[4]]

    def test_the_floor_is_a_row_without_a_goal_only_when_measured(self):
        def floor_rows(lean):
            res = Results()
            res.lean = lean
            return [row for row in table_rows(res) if "Floor" in row[0]]
        self.assertEqual(floor_rows(self.lean()), [])
        rows = floor_rows(self.lean(floor_version=0.0061, floor_rss=10 * 1024 * 1024))
        self.assertEqual([(row[1], row[4], row[5]) for row in rows], [("6.1 ms, 10.0 MiB", "", "")])

    def test_goals_met_and_missed(self):
        self.assertEqual(self.goals(self.lean()), ["met", "met", "met"])
        self.assertEqual(self.goals(self.lean(stripped=17_000_000, version=0.006, rss=11 * 1024 * 1024)),
                         ["MISSED", "MISSED", "MISSED"])
        self.assertEqual(self.goals(self.lean(icudt_symbol=True))[0], "MISSED")
